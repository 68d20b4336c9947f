import { z } from 'zod';
import { event, invoke } from './define';
import { NoInput } from './common';

export const CONNECTION_STATES = ['disconnected', 'connected', 'error'] as const;

/** Where Postdesk talks to and whether a key is stored. Never carries the key itself. */
export const ConnectionStatus = z.object({
  state: z.enum(CONNECTION_STATES),
  base_url: z.string().nullable(),
  /** True when connected to the embedded sandbox ("Try offline"). */
  offline: z.boolean(),
  has_key: z.boolean(),
  /** Why the last attempt failed, for `error`. */
  message: z.string().nullable(),
  /**
   * How far the service's clock is ahead of this computer's (ms, negative: behind), learned from the `Date` of its
   * answers (the sandbox's virtual clock included). The pages judge "in the past" by this computer's time plus it,
   * as the service judges a schedule. Absent until the service has answered.
   */
  clock_offset_ms: z.number().int().optional(),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const ConnectInput = z.object({
  base_url: z.url({ protocol: /^https?$/ }),
  /** Write-only: checked by listing accounts, then stored in the keychain; never returned. */
  api_key: z.string().trim().min(1).max(1000),
});
export type ConnectInput = z.infer<typeof ConnectInput>;

export const connection = {
  status: invoke(NoInput, ConnectionStatus),
  connect: invoke(ConnectInput, ConnectionStatus),
  /** "Try offline": starts the embedded sandbox and connects to it with its demo key. */
  useOffline: invoke(NoInput, ConnectionStatus),
  disconnect: invoke(NoInput, ConnectionStatus),
  didChange: event(ConnectionStatus),
} as const;
