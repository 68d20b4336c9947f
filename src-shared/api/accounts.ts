import { z } from 'zod';
import { DateTime, Platform } from './common';

/** Fields beyond `id` are the sandbox's choice (docs/sandbox.md); unknown fields pass through. */
export const Account = z.looseObject({
  id: z.string(),
  platform: Platform,
  name: z.string(),
  created_at: DateTime,
});
export type Account = z.infer<typeof Account>;

export const ListAccountsResponse = z.looseObject({ accounts: z.array(Account) });
export type ListAccountsResponse = z.infer<typeof ListAccountsResponse>;
