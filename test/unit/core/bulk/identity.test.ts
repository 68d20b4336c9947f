import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importIdentity } from '../../../../src-main/core/bulk/identity';
import { readRows } from '../../../../src-main/core/bulk/rows';
import { parseRows } from '../../../../src-main/core/bulk/validate';
import { mediaFixtures } from '../../../helpers/media-fixtures';

const A = '11111111-1111-4111-8111-000000000001';
const B = '11111111-1111-4111-8111-000000000004';
const dir = mkdtempSync(join(tmpdir(), 'pd-bulk-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(mediaFixtures().jpeg, join(dir, 'a.jpg'));
copyFileSync(mediaFixtures().jpeg, join(dir, 'same-bytes.jpg'));
copyFileSync(mediaFixtures().png, join(dir, 'other.png'));

let n = 0;
async function identityOf(text: string, zone = 'UTC', ext = 'csv'): Promise<string> {
  const file = join(dir, `f${n++}.${ext}`);
  writeFileSync(file, text);
  const parsed = parseRows((await readRows(file)).rows, { baseDir: dir, defaultTimezone: zone });
  return importIdentity(parsed.rows, null);
}

const HEAD = 'caption,media,targets,scheduled_at,action';
const r1 = `"Hello,\nworld",a.jpg,x:${A};linkedin:${B},2031-01-01T10:00:00Z,`;
const r2 = `Second,,x:${A},,draft`;

describe('importIdentity', () => {
  it('is the posts, not the bytes: line endings, row order, target order and zones of Z times do not count', async () => {
    const base = await identityOf([HEAD, r1, r2].join('\n'));
    expect(await identityOf(`${[HEAD, r1, r2].join('\r\n')}\r\n`.replace('Hello,\n', 'Hello,\r\n'))).toBe(
      base,
    );
    expect(await identityOf([HEAD, r2, r1].join('\n'))).toBe(base);
    expect(
      await identityOf([HEAD, r1.replace(`x:${A};linkedin:${B}`, `linkedin:${B};x:${A}`), r2].join('\n')),
    ).toBe(base);
    expect(await identityOf([HEAD, r1, r2].join('\n'), 'Asia/Tokyo')).toBe(base);
    expect(
      await identityOf(
        [HEAD, r1.replace('2031-01-01T10:00:00Z', '2031-01-01T11:00:00+01:00'), r2].join('\n'),
      ),
    ).toBe(base);
    // Media by content: the same bytes under another name are the same post.
    expect(await identityOf([HEAD, r1.replace('a.jpg', 'same-bytes.jpg'), r2].join('\n'))).toBe(base);
    const json = JSON.stringify([
      {
        caption: 'Hello,\nworld',
        media: ['a.jpg'],
        targets: [`x:${A}`, `linkedin:${B}`],
        scheduled_at: '2031-01-01T10:00:00Z',
      },
      { caption: 'Second', targets: `x:${A}`, action: 'draft' },
    ]);
    expect(await identityOf(json, 'UTC', 'json')).toBe(base);
  });

  it('changes with anything that is sent', async () => {
    const base = await identityOf([HEAD, r1, r2].join('\n'));
    const variants = [
      [HEAD, r1.replace('Hello', 'Hallo'), r2],
      [HEAD, r1.replace('a.jpg', 'other.png'), r2],
      [HEAD, r1.replace(`;linkedin:${B}`, ''), r2],
      [HEAD, r1.replace('10:00:00Z', '10:01:00Z'), r2],
      [HEAD, r1, `Second,,x:${A},2031-02-01T00:00:00Z,`],
      [HEAD, r1],
      [HEAD, r1, r2, r2],
    ];
    const ids = await Promise.all(variants.map((v) => identityOf(v.join('\n'))));
    for (const id of ids) expect(id).not.toBe(base);
    expect(new Set(ids).size).toBe(ids.length);
    // A local time is read in the zone: another zone is another instant, so other posts.
    const local = [HEAD, `Morning,,x:${A},2031-01-01 09:00,`].join('\n');
    expect(await identityOf(local, 'UTC')).not.toBe(await identityOf(local, 'Europe/Paris'));
  });
});
