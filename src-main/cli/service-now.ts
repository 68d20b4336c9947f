import type { ApiClient } from '../core/api/client';

/**
 * The service's time now, in ms, for the "must be in the future" checks of `--at`: the service judges a schedule by
 * its own clock (the sandbox's virtual one included), so a time this computer thinks is ahead may already be past
 * there. Until an answer of the service has said its time, one cheap read asks it (not when `ask` is false, as for
 * `--queue`, which works offline); unreachable, this computer's clock is used and the service has the last word.
 */
export async function serviceNow(
  client: Pick<ApiClient, 'clock' | 'listAccounts'>,
  ask = true,
): Promise<number> {
  const clock = client.clock;
  if (!clock) return Date.now();
  if (!clock.known() && ask) {
    // Any answer carries the service's `Date`, a refusal included: only what it says of the time is wanted here.
    await client.listAccounts().catch(() => undefined);
  }
  return clock.now().getTime();
}
