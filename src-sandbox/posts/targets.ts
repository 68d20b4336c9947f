import type { Target } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { getAccount } from './accounts';
import type { AccountRow } from './records';

export const YOUTUBE_REFUSED =
  'youtube cannot be published or scheduled through /api/cli/posts; YouTube is reached through agent automations and direct uploads';

/** Checks targets against the owner's accounts; returns issues keyed by field path (empty when fine). */
export function targetIssues(
  ctx: SandboxContext,
  ownerId: string,
  targets: readonly Target[],
  opts: {
    path: string;
    allowYoutube?: boolean;
    existingAccountIds?: readonly string[];
    /** The owner's accounts when the caller has read them already (a bulk reads them once). */
    accounts?: ReadonlyMap<string, AccountRow>;
  },
): Record<string, string> {
  const issues: Record<string, string> = {};
  const seen = new Set(opts.existingAccountIds ?? []);
  targets.forEach((t, i) => {
    const at = `${opts.path}.${i}`;
    if (t.platform === 'youtube' && !opts.allowYoutube) {
      issues[`${at}.platform`] = YOUTUBE_REFUSED;
      return;
    }
    const account = opts.accounts
      ? (opts.accounts.get(t.social_account_id) ?? null)
      : getAccount(ctx, ownerId, t.social_account_id);
    if (!account) {
      issues[`${at}.social_account_id`] = 'no connected account with this id';
      return;
    }
    if (account.platform !== t.platform) {
      issues[`${at}.platform`] = `account ${account.id} is a ${account.platform} account, not ${t.platform}`;
      return;
    }
    if (seen.has(t.social_account_id)) {
      issues[`${at}.social_account_id`] =
        'this account is already a target of this post (one delivery per target)';
      return;
    }
    seen.add(t.social_account_id);
  });
  return issues;
}
