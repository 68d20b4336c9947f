import type { z } from 'zod';
import { fail, issuesOf, ok, type BridgeResult } from '../../../src-shared/ipc/bridge-error';
import { findChannel, type EventChannelName } from '../../../src-shared/ipc/contract';
import type { InvokeDef } from '../../../src-shared/ipc/define';
import { redact, redactDeep } from '../api/errors';
import { toBridgeError } from './bridge-fault';
import type { Disposable } from './events';
import type { BridgeEvents } from './events';
import type { Handlers } from './handlers';

export interface BridgeDispatcher {
  /** Parses `input` with the channel's schema, runs its handler, parses the output; never throws. */
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Events, already checked against their schema and scrubbed of secrets. */
  subscribe(listener: (channel: EventChannelName, payload: unknown) => void): Disposable;
}

/**
 * Last line of defence: the core's scrubber replaces every registered credential (API key, run and
 * claim tokens) wherever it hides. One pass over the JSON; objects are only rebuilt when it changed.
 */
export function scrubSecrets<T>(value: T): T {
  if (value === undefined) return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const clean = redact(json);
  if (clean === json) return value;
  try {
    return JSON.parse(clean) as T;
  } catch {
    return redactDeep(value);
  }
}

type AnyHandler = (input: unknown) => Promise<unknown>;

export function createBridgeDispatcher(handlers: Handlers, events: BridgeEvents): BridgeDispatcher {
  const table = handlers as unknown as Record<string, Record<string, AnyHandler | undefined>>;
  return {
    async invoke(channel, input) {
      const entry = findChannel(channel);
      if (!entry || entry.def.kind !== 'invoke') {
        return fail({ kind: 'invalid_input', message: 'unknown channel' });
      }
      const def = entry.def as InvokeDef;
      const parsed = def.input.safeParse(input);
      if (!parsed.success) {
        return fail({
          kind: 'invalid_input',
          message: `invalid input for ${entry.name}`,
          issues: issuesOf(parsed.error as z.ZodError),
        });
      }
      const handler = table[entry.domain]?.[entry.verb];
      if (!handler) return fail({ kind: 'unavailable', message: `${entry.name} has no handler` });
      try {
        const out = await handler(parsed.data);
        const checked = def.output.safeParse(out);
        if (!checked.success) {
          return fail({ kind: 'internal', message: `${entry.name} answered outside its contract` });
        }
        return ok(scrubSecrets(checked.data));
      } catch (e) {
        return fail(toBridgeError(e));
      }
    },
    subscribe(listener) {
      return events.subscribe((channel, payload) => {
        const entry = findChannel(channel);
        if (!entry || entry.def.kind !== 'event') return false;
        const checked = entry.def.payload.safeParse(payload);
        if (!checked.success) return false; // a malformed event is dropped rather than sent half-typed
        return listener(channel, scrubSecrets(checked.data));
      });
    },
  };
}
