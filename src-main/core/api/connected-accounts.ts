import type { Account } from '../../../src-shared/api/accounts';
import type { ApiClient } from './client';
import { NetworkError } from './errors';

/**
 * The owner's connected accounts, for a check of the targets before anything is sent (a bulk dry run, `posts create`); null when the service cannot be asked now
 * (offline): the rows are then checked without them, and the service has the last word.
 */
export async function connectedAccounts(
  api: Pick<ApiClient, 'listAccounts'>,
  signal?: AbortSignal,
): Promise<readonly Account[] | null> {
  try {
    return (await api.listAccounts({ signal })).accounts;
  } catch (err) {
    if (err instanceof NetworkError) return null;
    throw err;
  }
}
