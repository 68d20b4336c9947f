import { describe, expect, it } from 'vitest';
import { planReimport, type CurrentPost } from '../../../../src-main/core/bulk/reimport';
import type { RawRow } from '../../../../src-main/core/bulk/rows';

const X = 'x:11111111-1111-4111-8111-000000000005';
const LI = 'linkedin:11111111-1111-4111-8111-000000000004';
const IG = 'instagram:11111111-1111-4111-8111-000000000002';
const ASSET = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const NOW = new Date('2030-06-01T00:00:00Z');

const post: CurrentPost = {
  postId: 'p1',
  caption: 'Launch day\nsee you there',
  targets: [X, LI],
  media: [ASSET],
  scheduledAt: '2031-01-01T09:00:00.000Z',
  action: 'schedule',
};
/** The row an export writes for `post`, with `patch` applied. */
const row = (patch: Record<string, unknown> = {}, n = 1): RawRow => ({
  row: n,
  line: n + 1,
  fields: {
    post_id: 'p1',
    caption: post.caption,
    targets: post.targets.join(';'),
    media: ASSET,
    scheduled_at: post.scheduledAt,
    timezone: 'Europe/Paris',
    action: 'schedule',
    scheduled_at_local: '2031-01-01 10:00:00',
    statuses: 'scheduled;scheduled',
    ...patch,
  },
});
const plan = (rows: RawRow[]) =>
  planReimport(rows, { lookup: (id) => (id === 'p1' ? post : null), defaultTimezone: 'UTC', now: NOW });

describe('planReimport', () => {
  it('sends nothing for a row equal to its post, whatever the read-only columns say', () => {
    const p = plan([row({ statuses: 'posted;failed', scheduled_at_local: 'anything' })]);
    expect(p).toMatchObject({ updates: [], unchanged: [{ row: 1, postId: 'p1' }], problems: [] });
  });

  it('counts a caption equal but for the spaces and line endings a file adds as unchanged', () => {
    expect(plan([row({ caption: '  Launch day\r\nsee you there ' })]).unchanged).toHaveLength(1);
  });

  it('sends only the fields that differ', () => {
    const p = plan([
      row({
        caption: 'New words',
        targets: `${LI};${X};${IG}`,
        scheduled_at: '2031-01-02 09:00',
        timezone: 'Europe/Paris',
      }),
    ]);
    expect(p.problems).toEqual([]);
    expect(p.updates).toEqual([
      {
        row: 1,
        line: 2,
        changed: ['caption', 'add_targets', 'scheduled_at'],
        update: {
          post_id: 'p1',
          caption: 'New words',
          scheduled_at: '2031-01-02T08:00:00.000Z',
          add_targets: [{ platform: 'instagram', social_account_id: IG.slice('instagram:'.length) }],
        },
      },
    ]);
    // The same instant written another way is no change.
    expect(
      plan([row({ scheduled_at: '2031-01-01 10:00', timezone: 'Europe/Paris' })]).unchanged,
    ).toHaveLength(1);
  });

  it('refuses what an update cannot do, naming the field', () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ targets: X }, 'targets', new RegExp(`${LI} cannot be removed`)],
      [{ post_id: '', caption: 'x' }, 'post_id', /add new posts from a file without that column/],
      [{ post_id: 'nobody' }, 'post_id', /no post nobody is known/],
      [{ media: '' }, 'media', /cannot be changed/],
      [{ action: 'draft' }, 'action', /cannot make it draft/],
      [{ scheduled_at: '' }, 'scheduled_at', /cannot cancel a schedule/],
      [{ scheduled_at: '2029-01-01T00:00:00Z' }, 'scheduled_at', /in the past/],
      [{ caption: 'x'.repeat(2201) }, 'caption', /2200/],
    ];
    for (const [patch, field, message] of cases) {
      const p = plan([row(patch)]);
      expect(p.updates).toEqual([]);
      expect(p.problems).toHaveLength(1);
      expect(p.problems[0]).toMatchObject({ row: 1, line: 2, field });
      expect(p.problems[0]?.message).toMatch(message);
    }
  });

  it('does not hold a row against a post that has been published since the export', () => {
    const published = { ...post, action: '' as const };
    const p = planReimport([row({ action: 'schedule' })], {
      lookup: () => published,
      defaultTimezone: 'UTC',
      now: NOW,
    });
    expect(p).toMatchObject({ problems: [], unchanged: [{ row: 1 }] });
  });

  it('takes one row per post, and refuses a column it does not know', () => {
    expect(plan([row({}, 1), row({ caption: 'b' }, 2)]).problems).toMatchObject([
      { row: 2, field: 'post_id', message: 'p1 is also on row 1; a post can be updated by one row only' },
    ]);
    expect(plan([row({ schedule_at: 'x' })]).problems).toMatchObject([{ row: null, field: 'schedule_at' }]);
  });
});
