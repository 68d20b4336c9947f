import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATUSES } from '../../../src-shared/api/posts';

/**
 * The delivery statuses are grouped in one place, the transition table (src-shared/api/delivery-transitions.ts):
 * "still scheduled", "editable", "deletable" were once hand lists in nine files of core and the sandbox, and
 * drifted. This keeps them from coming back: outside src-shared, no source lists two statuses side by side
 * (`['scheduled', 'retry_scheduled']`) or tests a status against two of them (`s === 'draft' || s === 'scheduled'`).
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const TREES = ['src-main', 'src-sandbox', 'src-renderer/src'];

/** Where a list of statuses is not a rule of the table, with why. */
const ALLOWED: Readonly<Record<string, string>> = {
  // A migration's SQL is history: it ran on files that exist, and must stay as it ran.
  'src-sandbox/migrations/v3-due-indexes.ts': 'a migration, frozen as it ran',
  // Which colour a post with many deliveries takes: a display order over every status, not a group.
  'src-renderer/src/features/calendar/calendar-events.ts': 'the order of event colours',
  // Every status but draft, in the order a delivery moves through them (the outbox's own look-up).
  'src-main/core/outbox/lookup.ts': 'every status a publish-now can reach, in order',
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(e.name) ? [path] : [];
  });
}

const S = `(?:${DELIVERY_STATUSES.join('|')})`;
const LIST = new RegExp(`['"\`]${S}['"\`]\\s*,\\s*['"\`]${S}['"\`]`);
const EITHER = new RegExp(`status\\s*===\\s*'${S}'\\s*\\|\\|\\s*[\\w.]*status\\s*===\\s*'${S}'`);

describe('status groups come from the transition table', () => {
  it('no source outside src-shared lists delivery statuses by hand', () => {
    const found: string[] = [];
    for (const file of TREES.flatMap(sources)) {
      const rel = relative(ROOT, join(ROOT, file));
      if (ALLOWED[rel]) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (LIST.test(line) || EITHER.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
      // A list split over lines (one status a line).
      const joined = text.replace(/\s*\n\s*/g, ' ');
      if (LIST.test(joined) && !found.some((f) => f.startsWith(`${rel}:`)))
        found.push(`${rel}: a list over lines`);
    }
    expect(found).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    expect(LIST.test("const STILL = new Set(['scheduled', 'retry_scheduled']);")).toBe(true);
    expect(EITHER.test("d.status === 'draft' || d.status === 'scheduled'")).toBe(true);
    expect(LIST.test("status IN ('scheduled', 'retry_scheduled')")).toBe(true);
    expect(LIST.test("canDo(d.status, 'edit')")).toBe(false);
  });
});
