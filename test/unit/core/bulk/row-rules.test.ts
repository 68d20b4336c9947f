import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonInWords } from '../../../../src-main/core/bulk/service-reason';
import { readRows } from '../../../../src-main/core/bulk/rows';
import { formatProblem, validateRows } from '../../../../src-main/core/bulk/validate';

const X = '11111111-1111-4111-8111-000000000005';
const IG = '11111111-1111-4111-8111-000000000002';
const ACCOUNTS = [
  { id: X, platform: 'x' as const },
  { id: IG, platform: 'instagram' as const },
];
const now = new Date('2030-01-01T00:00:00Z');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-row-rules-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(lines: string[], accounts: typeof ACCOUNTS | null) {
  const file = join(dir, `f${Math.random()}.csv`);
  writeFileSync(file, lines.join('\n'));
  return validateRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: 'UTC', now, accounts });
}

describe('the dry run checks rows against the accounts and the platforms', () => {
  it('makes an unknown account, another platform’s account and a YouTube target problems of the row', async () => {
    const other = '99999999-9999-4999-8999-999999999999';
    const v = await validate(
      [
        'caption,targets,action',
        `fine,x:${X},draft`,
        `stranger,x:${other},draft`,
        `wrong kind,x:${IG},draft`,
        `tube,youtube:${X},draft`,
      ],
      ACCOUNTS,
    );
    expect(v.valid.map((r) => r.row)).toEqual([1]);
    expect(v.problems.map(formatProblem)).toEqual([
      `row 2 (line 3), targets: no connected account has the id ${other}; \`postdesk accounts\` lists the connected ones`,
      `row 3 (line 4), targets: the account ${IG} is on Instagram, not X; write instagram:${IG}`,
      'row 4 (line 5), targets: YouTube cannot be reached by posts: the service publishes to YouTube only through automations and direct uploads.',
    ]);
  });

  it('leaves the targets to the service when the accounts could not be listed', async () => {
    const v = await validate(
      ['caption,targets,action', `stranger,x:99999999-9999-4999-8999-999999999999,draft`],
      null,
    );
    expect(v.problems).toEqual([]);
    expect(v.valid).toHaveLength(1);
  });

  it("blocks what a platform certainly refuses and only warns past X's 280", async () => {
    const v = await validate(
      ['caption,targets,action', `no picture,instagram:${IG},draft`, `${'w'.repeat(290)},x:${X},draft`],
      ACCOUNTS,
    );
    expect(v.valid.map((r) => r.row)).toEqual([2]);
    expect(v.problems.map(formatProblem)).toEqual([
      'row 1 (line 2), media: Instagram needs at least 1 image or video; this post has none.',
    ]);
    expect(v.warnings.map(formatProblem)).toEqual([
      'row 2 (line 3), caption: X takes at most 280 characters; this caption counts 290 there (10 over).',
    ]);
  });
});

describe('reasonInWords', () => {
  it('names the column and the entry instead of a field path', () => {
    expect(reasonInWords('targets.0.social_account_id: no connected account with this id')).toBe(
      'targets, the 1st entry: no connected account with this id',
    );
    expect(
      reasonInWords('targets.1.platform: youtube cannot be published; media.2.asset_id: not uploaded'),
    ).toBe('targets, the 2nd entry: youtube cannot be published; media, the 3rd entry: not uploaded');
    expect(reasonInWords('scheduled_at: must be in the future')).toBe('scheduled_at: must be in the future');
    expect(reasonInWords('The service is busy')).toBe('The service is busy');
  });
});
