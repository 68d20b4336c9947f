import type { Account } from '../../../src-shared/api/accounts';
import { PLATFORM_RULES } from '../../../src-shared/platform-rules';
import { checkPost, type MediaFacts } from '../../../src-shared/platform-check';
import type { FileCheck } from '../media/check';
import type { PostRow, RowProblem } from './row-shapes';

/**
 * What a dry run knows beyond each field's own shape, so that "ok" means the service and the platforms will
 * take the row: every target is a connected account of that platform (when the accounts could be listed), and
 * the platforms' rules (src-shared/platform-rules.ts: reach, media required, kinds mixed, counts, video length
 * and shape, caption length). A rule that blocks is a problem of the row; one that warns is a warning. Each
 * names the column a person would fix, never a field path.
 */
export interface RowVerdicts {
  readonly problems: readonly RowProblem[];
  readonly warnings: readonly RowProblem[];
}

/** What is known of one media cell: a file checked here says its kind, length and shape; an asset id does not. */
function factsOf(m: PostRow['media'][number], files: ReadonlyMap<string, FileCheck>): MediaFacts {
  if (m.kind !== 'file') return { kind: 'unknown' };
  const check = files.get(m.path);
  const type = check?.contentType ?? check?.detected?.mime ?? null;
  const video = check?.probe?.video ?? null;
  return {
    kind: type?.startsWith('video/') ? 'video' : type?.startsWith('image/') ? 'image' : 'unknown',
    durationSeconds: check?.probe?.durationSec ?? null,
    width: video?.displayWidth ?? null,
    height: video?.displayHeight ?? null,
  };
}

const COLUMN_OF: Readonly<Record<string, string>> = {
  'posts-reach': 'targets',
  'caption-length': 'caption',
};

export function checkRowRules(
  row: PostRow,
  ctx: {
    /** The connected accounts; null when they could not be listed (offline): targets are then not checked. */
    readonly accounts: readonly Pick<Account, 'id' | 'platform'>[] | null;
    readonly files: ReadonlyMap<string, FileCheck>;
  },
): RowVerdicts {
  const problems: RowProblem[] = [];
  const warnings: RowProblem[] = [];
  const at = { row: row.row, line: row.line };
  if (ctx.accounts) {
    const byId = new Map(ctx.accounts.map((a) => [a.id, a]));
    for (const t of row.targets) {
      if (!PLATFORM_RULES[t.platform].postsReach.value) continue; // said once below, by the rules table
      const account = byId.get(t.social_account_id);
      if (!account) {
        problems.push({
          ...at,
          field: 'targets',
          message: `no connected account has the id ${t.social_account_id}`,
          cliHint: '; `postdesk accounts` lists the connected ones',
        });
      } else if (account.platform !== t.platform) {
        problems.push({
          ...at,
          field: 'targets',
          message: `the account ${t.social_account_id} is on ${PLATFORM_RULES[account.platform].name}, not ${PLATFORM_RULES[t.platform].name}; write ${account.platform}:${t.social_account_id}`,
        });
      }
    }
  }
  const verdicts = checkPost(
    row.targets.map((t) => t.platform),
    { caption: row.caption, media: row.media.map((m) => factsOf(m, ctx.files)) },
  );
  for (const v of verdicts) {
    const p = { ...at, field: COLUMN_OF[v.rule] ?? 'media', message: v.message };
    (v.severity === 'block' ? problems : warnings).push(p);
  }
  return { problems, warnings };
}
