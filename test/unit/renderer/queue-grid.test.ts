import { describe, expect, it } from 'vitest';
import type { AccountUpcoming } from '../../../src-shared/ipc/queue';
import type { AccountQueue } from '../../../src-shared/queue';
import { planAdd, slotInZone, withoutSlot } from '../../../src-renderer/src/features/queue/slot-plan';
import { buildWeekGrid, canDrop, weekDays } from '../../../src-renderer/src/features/queue/week-grid';

// Friday 27 November 2026, 10:00 UTC.
const NOW = new Date('2026-11-27T10:00:00Z');
const slot = (
  at: string,
  weekday: number,
  time: string,
  posts: AccountUpcoming['slots'][number]['posts'] = [],
) => ({
  at,
  weekday,
  time,
  date: at.slice(0, 10),
  posts,
});
const post = (post_id: string, platform: 'x' | 'linkedin') => ({
  post_id,
  delivery_id: `${post_id}-${platform}`,
  caption: post_id,
  platform,
});

describe('the week', () => {
  it('starts on the person’s first day, in their zone', () => {
    expect(weekDays(NOW, 'UTC', 'monday', 0)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(weekDays(NOW, 'UTC', 'sunday', 1)[0]).toBe('2026-11-29');
    // Already Saturday in Kiritimati (UTC+14) late on Friday UTC.
    expect(weekDays(new Date('2026-11-27T22:00:00Z'), 'Pacific/Kiritimati', 'sunday', 0)[0]).toBe(
      '2026-11-22',
    );
  });
});

describe('the grid shared across accounts', () => {
  const upcoming: AccountUpcoming[] = [
    {
      account_id: 'x',
      timezone: 'Europe/Berlin',
      slots: [
        slot('2026-11-27T12:00:00.000Z', 5, '13:00', [post('p1', 'x')]),
        slot('2026-11-30T08:00:00.000Z', 1, '09:00'),
        slot('2026-12-07T08:00:00.000Z', 1, '09:00'),
      ],
    },
    {
      account_id: 'li',
      timezone: 'UTC',
      slots: [
        slot('2026-11-27T12:00:00.000Z', 5, '12:00', [post('p1', 'linkedin')]),
        slot('2026-11-28T12:00:00.000Z', 6, '12:00'),
      ],
    },
  ];

  it('puts each instant in its day and time of the person’s zone, one card per post, the accounts beside it', () => {
    const days = weekDays(NOW, 'Asia/Tokyo', 'monday', 0);
    const grid = buildWeekGrid(upcoming, days, 'Asia/Tokyo');
    expect(grid.rows.map((r) => r.time)).toEqual(['21:00']);
    const friday = grid.rows[0]?.cells[4];
    expect(friday?.accounts.map((a) => a.account_id)).toEqual(['x', 'li']);
    expect(friday?.posts).toEqual([
      {
        post_id: 'p1',
        caption: 'p1',
        at: '2026-11-27T12:00:00.000Z',
        account_ids: ['x', 'li'],
        platforms: ['x', 'linkedin'],
      },
    ]);
    // Monday 30th is the next week; the 28th's slot is Saturday.
    expect(grid.rows[0]?.cells[5]?.accounts.map((a) => a.account_id)).toEqual(['li']);
    expect(grid.rows[0]?.cells[0]?.at).toBeNull();
  });

  it('takes a drop only on a free slot of one of the post’s accounts', () => {
    const grid = buildWeekGrid(upcoming, weekDays(NOW, 'UTC', 'monday', 0), 'UTC');
    const cells = grid.rows.flatMap((r) => r.cells);
    const p1 = cells.find((c) => c.posts.length)?.posts[0];
    if (!p1) throw new Error('no post');
    const saturday = cells.find((c) => c.at === '2026-11-28T12:00:00.000Z');
    expect(saturday && canDrop(p1, saturday)).toBe(true);
    expect(canDrop({ ...p1, account_ids: ['x'] }, saturday!)).toBe(false);
    expect(
      canDrop(
        p1,
        cells.find((c) => c.at === p1.at)!,
      ),
    ).toBe(false);
    expect(
      canDrop(
        { post_id: 'p2', at: 'other', account_ids: ['li'] },
        cells.find((c) => c.at === p1.at)!,
      ),
    ).toBe(false);
  });
});

describe('adding and removing posting times', () => {
  const queues: AccountQueue[] = [
    { account_id: 'x', timezone: 'Asia/Tokyo', slots: [{ weekday: 1, time: '09:00' }], updated_at: '' },
  ];

  it('keeps an account’s zone and saves the new time there as the same moment; a new account takes the zone asked in', () => {
    const plan = planAdd(queues, { days: [1, 5], time: '09:00', zone: 'UTC', accountIds: ['x', 'li'] }, NOW);
    expect(plan[0]).toMatchObject({
      account_id: 'x',
      keptZone: 'Asia/Tokyo',
      added: [
        { weekday: 1, time: '18:00' },
        { weekday: 5, time: '18:00' },
      ],
      schedule: {
        timezone: 'Asia/Tokyo',
        slots: [
          { weekday: 1, time: '09:00' },
          { weekday: 1, time: '18:00' },
          { weekday: 5, time: '18:00' },
        ],
      },
    });
    expect(plan[1]).toMatchObject({ account_id: 'li', keptZone: null, schedule: { timezone: 'UTC' } });
    // 23:30 on Sunday in New York is Monday morning in Tokyo.
    expect(slotInZone({ weekday: 7, time: '23:30' }, 'America/New_York', 'Asia/Tokyo', NOW)).toEqual({
      weekday: 1,
      time: '13:30',
    });
  });

  it('adds a time already there once, says when an account would pass 70 a week, and removes one slot only', () => {
    expect(
      planAdd(queues, { days: [1], time: '09:00', zone: 'Asia/Tokyo', accountIds: ['x'] }, NOW)[0]?.added,
    ).toEqual([]);
    const full: AccountQueue[] = [
      {
        account_id: 'x',
        timezone: 'UTC',
        updated_at: '',
        slots: Array.from({ length: 70 }, (_, i) => ({
          weekday: (i % 7) + 1,
          time: `0${Math.floor(i / 7)}:00`,
        })),
      },
    ];
    expect(planAdd(full, { days: [1], time: '23:00', zone: 'UTC', accountIds: ['x'] }, NOW)[0]?.tooMany).toBe(
      true,
    );
    expect(withoutSlot(full[0]!, { weekday: 1, time: '00:00' }).slots).toHaveLength(69);
  });
});
