import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markByLastWeek, openUptimeLog, WEEK_MS } from '../../../../src-main/core/gaps/uptime';
import { upcomingOccurrences } from '../../../../src-main/core/gaps/upcoming';
import { openStore, type Store } from '../../../../src-main/core/store/store';

/** The start/stop history in a real SQLite file, on a manual clock, and the marks it gives the next occurrences. */

let dir: string;
let store: Store;
let now = new Date('2030-01-01T00:00:00Z');
const clock = () => now;
const hours = (h: number) => h * 3600_000;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'postdesk-uptime-'));
  store = openStore(join(dir, 'store.db'));
  now = new Date('2030-01-01T00:00:00Z');
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the uptime log', () => {
  it('records starts and stops; a session that never stopped ends at its last beat; it survives a reopen', () => {
    const log = openUptimeLog(store, clock);
    const a = log.start('executor');
    now = new Date(now.getTime() + hours(2));
    a.stop();
    now = new Date(now.getTime() + hours(1));
    const b = log.start('executor');
    now = new Date(now.getTime() + hours(1));
    b.beat();
    now = new Date(now.getTime() + hours(5)); // then it crashed: no stop
    store.close();
    store = openStore(join(dir, 'store.db'));
    const again = openUptimeLog(store, clock);
    expect(again.sessions('executor', 0)).toEqual([
      {
        kind: 'executor',
        start: Date.parse('2030-01-01T00:00:00Z'),
        end: Date.parse('2030-01-01T02:00:00Z'),
      },
      {
        kind: 'executor',
        start: Date.parse('2030-01-01T03:00:00Z'),
        end: Date.parse('2030-01-01T04:00:00Z'),
      },
    ]);
    expect(again.sessions('app', 0)).toEqual([]);
    expect(again.firstStart('executor')).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });

  it('marks the next occurrences that fell, a week before, while Postdesk was not running', () => {
    const log = openUptimeLog(store, clock);
    // Last week: running 08:00–12:00 on Tuesday 2030-01-01, nothing else.
    now = new Date('2030-01-01T08:00:00Z');
    const s = log.start('executor');
    now = new Date('2030-01-01T12:00:00Z');
    s.stop();
    now = new Date('2030-01-08T07:00:00Z');
    const next = upcomingOccurrences(
      [
        {
          id: 'a',
          name: 'Every 3 h',
          status: 'active',
          queue: 'local',
          schedule: { cron: '0 */3 * * *', timezone: 'UTC' },
        },
      ],
      now,
      { limit: 4 },
    );
    const marked = markByLastWeek(
      next,
      log.sessions('executor', now.getTime() - WEEK_MS - hours(1)),
      log.firstStart('executor'),
      now,
    );
    expect(marked.map((m) => [m.at.toISOString().slice(11, 16), m.lastWeek])).toEqual([
      ['09:00', 'running'],
      ['12:00', 'running'],
      ['15:00', 'not_running'],
      ['18:00', 'not_running'],
    ]);
    // Before the history reaches back a week, nothing is claimed.
    expect(markByLastWeek(next, [], null, now).every((m) => m.lastWeek === 'unknown')).toBe(true);
    const early = new Date('2030-01-01T07:00:00Z');
    expect(markByLastWeek(next, [], Date.parse('2030-01-05T00:00:00Z'), early)[0]?.lastWeek).toBe('unknown');
  });
});
