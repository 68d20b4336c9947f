import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatePostRequest, Delivery } from '../../../../src-shared/api/posts';
import { openDeliveryIndex, type DeliveryIndex } from '../../../../src-main/core/deliveries/delivery-index';
import { NoQueueError, placeInQueue } from '../../../../src-main/core/queue/place';
import { createQueueService } from '../../../../src-main/core/queue/queue-service';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import type { QueueSchedule } from '../../../../src-shared/queue';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const weekdays = (...times: string[]): QueueSchedule['slots'] =>
  [1, 2, 3, 4, 5].flatMap((weekday) => times.map((time) => ({ weekday, time })));
const BERLIN: QueueSchedule = { timezone: 'Europe/Berlin', slots: weekdays('09:00', '13:00') };
const UTC_NOON: QueueSchedule = { timezone: 'UTC', slots: weekdays('12:00') };
// Monday 2030-01-07, 07:00Z: before the first Berlin slot (08:00Z).
const NOW = new Date('2030-01-07T07:00:00Z');

describe('placeInQueue', () => {
  it('gives each target the earliest slot its account does not hold, and the next post the one after', () => {
    const taken = new Map([[A, new Set([Date.parse('2030-01-07T08:00:00Z')])]]);
    const placed = placeInQueue(
      [
        { targets: [{ platform: 'x', social_account_id: A }] },
        { targets: [{ platform: 'x', social_account_id: A }] },
      ],
      { schedules: new Map([[A, BERLIN]]), taken, after: NOW },
    );
    expect(placed.map((p) => p.map((x) => x.at.toISOString()))).toEqual([
      ['2030-01-07T12:00:00.000Z'],
      ['2030-01-08T08:00:00.000Z'],
    ]);
  });

  it('keeps a post whole at the earliest slot every account has free, not at each account’s own first slot', () => {
    // Berlin's 13:00 is 12:00 UTC in winter: the first instant both accounts share. A holds it on the 7th.
    const taken = new Map([[A, new Set([Date.parse('2030-01-07T12:00:00Z')])]]);
    const placed = placeInQueue(
      [
        {
          targets: [
            { platform: 'x', social_account_id: A },
            { platform: 'linkedin', social_account_id: B },
          ],
        },
      ],
      {
        schedules: new Map([
          [A, BERLIN],
          [B, UTC_NOON],
        ]),
        taken,
        after: NOW,
      },
    );
    expect(placed[0]?.map((p) => [p.at.toISOString(), p.targets.map((t) => t.social_account_id)])).toEqual([
      ['2030-01-08T12:00:00.000Z', [A, B]],
    ]);
    expect(taken.get(B)?.has(Date.parse('2030-01-08T12:00:00Z'))).toBe(true);
  });

  it('splits a post whose accounts share no slot at all into one post per instant', () => {
    const BERLIN_MORNING: QueueSchedule = { timezone: 'Europe/Berlin', slots: weekdays('09:00') };
    const placed = placeInQueue(
      [
        {
          targets: [
            { platform: 'x', social_account_id: A },
            { platform: 'linkedin', social_account_id: B },
          ],
        },
      ],
      {
        schedules: new Map([
          [A, BERLIN_MORNING],
          [B, UTC_NOON],
        ]),
        taken: new Map(),
        after: NOW,
      },
    );
    expect(placed[0]?.map((p) => [p.at.toISOString(), p.targets.map((t) => t.social_account_id)])).toEqual([
      ['2030-01-07T08:00:00.000Z', [A]],
      ['2030-01-07T12:00:00.000Z', [B]],
    ]);
  });

  it('keeps targets that share a slot instant in one post', () => {
    const placed = placeInQueue(
      [
        {
          targets: [
            { platform: 'x', social_account_id: A },
            { platform: 'linkedin', social_account_id: B },
          ],
        },
      ],
      {
        schedules: new Map([
          [A, UTC_NOON],
          [B, UTC_NOON],
        ]),
        taken: new Map(),
        after: NOW,
      },
    );
    expect(placed[0]).toHaveLength(1);
    expect(placed[0]?.[0]?.targets).toHaveLength(2);
  });

  it('refuses targets whose account has no slots, naming them', () => {
    expect(() =>
      placeInQueue([{ targets: [{ platform: 'x', social_account_id: B }] }], {
        schedules: new Map([[A, BERLIN]]),
        taken: new Map(),
        after: NOW,
      }),
    ).toThrow(NoQueueError);
  });
});

describe('queue service: next free slot from the local delivery index', () => {
  let store: Store;
  let index: DeliveryIndex;
  beforeEach(() => {
    store = openStore(':memory:');
    index = openDeliveryIndex(store);
  });
  afterEach(() => store.close());

  const delivery = (
    id: string,
    account: string,
    at: string,
    status: Delivery['status'] = 'scheduled',
  ): Delivery => ({
    id,
    post_id: `post-${id}`,
    status,
    platform: 'x',
    social_account_id: account,
    caption: `caption ${id}`,
    scheduled_at: at,
    published_at: null,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
  });

  it('skips slots held by a scheduled delivery of the same account, not by drafts or other accounts', async () => {
    index.learn('svc', {
      kind: 'records',
      deliveries: [
        delivery('1', A, '2030-01-07T08:00:00.000Z'),
        delivery('2', A, '2030-01-07T12:00:00.000Z', 'draft'),
        delivery('3', B, '2030-01-07T12:00:00.000Z'),
        delivery('4', A, '2030-01-08T08:00:00.000Z'),
      ],
    });
    const created: CreatePostRequest[] = [];
    let refreshed = 0;
    const queue = createQueueService({
      store,
      scope: () => 'svc',
      index,
      refresh: async (force) => void (refreshed += force ? 1 : 0),
      create: async (req) => {
        created.push(req);
        // What the outbox's bulk answer teaches the index: the new delivery now holds its slot.
        index.learn('svc', {
          kind: 'records',
          deliveries: req.targets.map((t, i) =>
            delivery(`new-${created.length}-${i}`, t.social_account_id, req.scheduled_at as string),
          ),
        });
        return `post-new-${created.length}`;
      },
      reschedule: async () => undefined,
      now: () => NOW,
    });
    queue.set(A, BERLIN);
    const upcoming = await queue.upcoming({ count: 3 });
    expect(upcoming[0]?.slots.map((s) => [s.at, s.posts.map((p) => p.caption)])).toEqual([
      ['2030-01-07T08:00:00.000Z', ['caption 1']],
      ['2030-01-07T12:00:00.000Z', []],
      ['2030-01-08T08:00:00.000Z', ['caption 4']],
    ]);
    const first = await queue.add({ caption: 'one', targets: [{ platform: 'x', social_account_id: A }] });
    const second = await queue.add({ caption: 'two', targets: [{ platform: 'x', social_account_id: A }] });
    expect([first.posts[0]?.at, second.posts[0]?.at]).toEqual([
      '2030-01-07T12:00:00.000Z',
      '2030-01-08T12:00:00.000Z',
    ]);
    expect(created.map((c) => c.caption)).toEqual(['one', 'two']);
    // Each add asks the service first, so a slot taken elsewhere since is seen.
    expect(refreshed).toBe(2);
  });

  it('keeps the slot of a post the outbox holds unconfirmed, and places two adds at once one after the other', async () => {
    const created: string[] = [];
    const queue = createQueueService({
      store,
      scope: () => 'svc',
      index,
      refresh: async () => undefined,
      create: async (req) => {
        // Slow enough that a second add started meanwhile would read the same free slot if not serialized.
        await new Promise((r) => setTimeout(r, 20));
        created.push(req.scheduled_at as string);
        index.learn('svc', {
          kind: 'records',
          deliveries: [delivery(`c${created.length}`, A, req.scheduled_at as string)],
        });
        return `p${created.length}`;
      },
      reschedule: async () => undefined,
      pending: () => [
        { targets: [{ platform: 'x', social_account_id: A }], scheduled_at: '2030-01-07T08:00:00.000Z' },
      ],
      now: () => NOW,
    });
    queue.set(A, BERLIN);
    const post = { caption: 'c', targets: [{ platform: 'x' as const, social_account_id: A }] };
    await Promise.all([queue.add(post), queue.add(post)]);
    expect(created).toEqual(['2030-01-07T12:00:00.000Z', '2030-01-08T08:00:00.000Z']);
  });

  it('moves a post to the top: it takes the first slot and the posts before its old slot shift one down', async () => {
    index.learn('svc', {
      kind: 'records',
      deliveries: [
        delivery('1', A, '2030-01-07T08:00:00.000Z'),
        delivery('2', A, '2030-01-07T12:00:00.000Z'),
        delivery('3', A, '2030-01-08T12:00:00.000Z'),
      ],
    });
    const moves: [string, string][] = [];
    const queue = createQueueService({
      store,
      scope: () => 'svc',
      index,
      refresh: async () => undefined,
      create: async () => null,
      reschedule: async (id, at) => void moves.push([id, at]),
      now: () => NOW,
    });
    queue.set(A, BERLIN);
    await queue.moveToTop('post-3', A);
    expect(moves).toEqual([
      ['post-3', '2030-01-07T08:00:00.000Z'],
      ['post-1', '2030-01-07T12:00:00.000Z'],
      // 2030-01-08 08:00 was free: the shift stops there.
      ['post-2', '2030-01-08T08:00:00.000Z'],
    ]);
  });
});

describe('parseSlotSpec', () => {
  it('reads ranges, lists, named sets and several times', async () => {
    const { parseSlotSpec } = await import('../../../../src-main/core/queue/slot-spec');
    const r = parseSlotSpec('mon-wed 13:00,09:00');
    expect(r.ok && r.slots.map((s) => `${s.weekday} ${s.time}`)).toEqual([
      '1 09:00',
      '1 13:00',
      '2 09:00',
      '2 13:00',
      '3 09:00',
      '3 13:00',
    ]);
    const w = parseSlotSpec('fri-mon 08:00');
    expect(w.ok && w.slots.map((s) => s.weekday)).toEqual([1, 5, 6, 7]);
    const named = parseSlotSpec('weekends 10:30');
    expect(named.ok && named.slots.map((s) => s.weekday)).toEqual([6, 7]);
    expect(parseSlotSpec('mon 9am')).toMatchObject({ ok: false });
    expect(parseSlotSpec('someday 09:00')).toMatchObject({ ok: false });
  });
});
