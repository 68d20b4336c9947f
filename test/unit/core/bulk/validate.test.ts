import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRows } from '../../../../src-main/core/bulk/rows';
import { formatProblem, validateRows } from '../../../../src-main/core/bulk/validate';
import { mediaFixtures } from '../../../helpers/media-fixtures';

const A = '11111111-1111-4111-8111-000000000001';
const dir = mkdtempSync(join(tmpdir(), 'pd-bulk-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const now = new Date('2030-06-01T00:00:00Z');

describe('validateRows', () => {
  it('lists every bad row by number and field, and keeps the good ones', async () => {
    const fx = mediaFixtures();
    const file = write(
      'mixed.csv',
      [
        'caption,media,targets,scheduled_at,timezone,action',
        `ok,${fx.jpeg},x:${A},2031-01-01 10:00,Europe/Paris,`,
        `"a caption, with a comma",,x:${A},,,draft`,
        `bad target,,x:nope,2031-01-01T10:00:00Z,,`,
        `past,,x:${A},2020-01-01T10:00:00Z,,`,
        `no schedule,,x:${A},,,schedule`,
        `bad zone,,x:${A},2031-01-01 10:00,Mars/Olympus,`,
        `too big,${fx.oversizeJpeg},x:${A},,,draft`,
        `${'c'.repeat(2201)},,x:${A},,,draft`,
        `gif,${fx.gif},x:${A},,,draft`,
      ].join('\n'),
    );
    const v = await validateRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: 'UTC', now });
    expect(v.total).toBe(9);
    expect(v.valid.map((r) => r.row)).toEqual([1, 2]);
    expect(v.valid[0]).toMatchObject({
      action: 'schedule',
      scheduledAt: '2031-01-01T09:00:00.000Z',
      line: 2,
    });
    expect(v.valid[1]).toMatchObject({ action: 'draft', caption: 'a caption, with a comma' });
    expect(v.problems.map((p) => [p.row, p.field])).toEqual([
      [3, 'targets'],
      [4, 'scheduled_at'],
      [5, 'scheduled_at'],
      [6, 'timezone'],
      [7, 'media'],
      [8, 'caption'],
      [9, 'media'],
    ]);
    const text = v.problems.map(formatProblem);
    expect(text[0]).toBe(
      'row 3 (line 4), targets: account id "nope" must be a uuid (see `postdesk accounts`)',
    );
    expect(text[1]).toBe('row 4 (line 5), scheduled_at: 2020-01-01T10:00:00.000Z is in the past');
    expect(text[4]).toContain(
      'row 7 (line 8), media: oversize.jpg: image uploads are limited to 15 MiB (15728640 bytes); this file is 16 MiB',
    );
    expect(text[5]).toBe('row 8 (line 9), caption: must be at most 2200 characters');
  });

  it('refuses unknown columns before reading any row (a typo must not turn schedules into drafts)', async () => {
    const file = write('typo.csv', `caption,targets,schedule_at\nhi,x:${A},2031-01-01T10:00:00Z\n`);
    const v = await validateRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: 'UTC', now });
    expect(v.valid).toEqual([]);
    expect(v.problems).toEqual([
      expect.objectContaining({
        row: null,
        field: 'schedule_at',
        message: expect.stringContaining('unknown column "schedule_at"'),
      }),
    ]);
  });

  it('reads JSON with arrays for media and targets', async () => {
    const file = write(
      'posts.json',
      JSON.stringify({
        posts: [
          { caption: 'one', targets: [`linkedin:${A}`], scheduled_at: '2031-02-01T08:00:00Z' },
          { caption: 'two', targets: [{ platform: 'x', social_account_id: A }], media: [A], action: 'draft' },
          'not an object',
        ],
      }),
    );
    const v = await validateRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: 'UTC', now });
    expect(v.valid.map((r) => r.row)).toEqual([1, 2]);
    expect(v.valid[1]?.media).toEqual([{ kind: 'asset', assetId: A }]);
    expect(v.problems).toEqual([
      { row: 3, line: null, field: null, message: 'each post must be a JSON object' },
    ]);
  });

  it('holds a post to 10 media', async () => {
    const fx = mediaFixtures();
    const file = write(
      'many.csv',
      `caption,media,targets,action\nx,${Array(11).fill(fx.png).join(';')},x:${A},draft\n`,
    );
    const v = await validateRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: 'UTC', now });
    expect(v.problems.map(formatProblem)).toEqual(['row 1 (line 2), media: must be at most 10 items']);
  });
});
