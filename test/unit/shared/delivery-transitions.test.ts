import { afterEach, describe, expect, it, vi } from 'vitest';
import * as table from '../../../src-shared/api/delivery-transitions';
import type { DeliveryAction } from '../../../src-shared/api/delivery-transitions';
import type { CreatePostResponse, Delivery, DeliveryStatus } from '../../../src-shared/api/posts';
import { DELIVERY_STATUSES } from '../../../src-shared/api/posts';
import { IDS, demoFixture, startTestSandbox, type TestSandbox } from '../../helpers/sandbox';

/**
 * The transition table drives what the UI offers, what the CLI refuses before sending, and what the sandbox
 * answers. A walk of every cell checks that each consumer agrees with it; then one cell is flipped (a published
 * delivery made deletable) and each of the three answers the other way, so none keeps a list of its own.
 */

const TABLE = '../../../src-shared/api/delivery-transitions';
const ACTIONS = table.DELIVERY_ACTIONS;
const FAR = '2031-06-01T09:00:00.000Z';

/** Real deliveries in every status, made by the sandbox itself (publish-now to a failing account, the clock). */
async function deliveryIn(sb: TestSandbox, status: DeliveryStatus): Promise<Delivery> {
  const platform = status === 'retry_scheduled' || status === 'failed' ? 'linkedin' : 'x';
  const res = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
    body: {
      caption: `${status} ${Math.random()}`,
      targets: [{ social_account_id: IDS.accounts[platform], platform }],
      ...(status === 'draft' ? { action: 'draft' } : status === 'scheduled' ? { scheduled_at: FAR } : {}),
    },
  });
  expect(res.status).toBe(201);
  const id = res.body.social_posts[0]!.id as string;
  if (status === 'failed') {
    // Attempts 2 and 3, each 5 minutes after the last, then no more.
    for (let i = 0; i < 2; i += 1) await sb.control.advance(5 * 60_000 + 1000);
  }
  const list = await sb.api<{ posts: Delivery[] }>('GET', `/api/cli/posts?status=${status}&limit=100`);
  const d = list.body.posts.find((p) => p.id === id);
  expect(d, `a ${status} delivery`).toBeDefined();
  return d!;
}

/** What the sandbox answers to the action on that delivery: 2xx is "done". */
async function sandboxDoes(sb: TestSandbox, d: Delivery, action: DeliveryAction): Promise<boolean | null> {
  const patch = (body: Record<string, unknown>) =>
    sb.api('PATCH', '/api/cli/posts', { body: { id: d.id, ...body } });
  let res;
  switch (action) {
    case 'delete':
      res = await sb.api('DELETE', '/api/cli/posts', { body: { id: d.id } });
      break;
    case 'edit':
      res = await patch({ caption: 'changed' });
      break;
    case 'cancel':
      res = await patch({ status: 'draft' });
      break;
    case 'schedule':
      res = await patch({ status: 'scheduled', scheduled_at: FAR });
      break;
    default:
      // retry and publish now are made of a create and a delete on the client's side, not a service call.
      return null;
  }
  expect([200, 400, 409]).toContain(res.status);
  return res.status === 200;
}

afterEach(() => {
  vi.doUnmock(TABLE);
  vi.resetModules();
});

describe('every cell of the transition table', () => {
  it('is what the UI offers and the CLI refuses, with the words of whyNot', async () => {
    const ui = await import('../../../src-renderer/src/features/posts/delivery-actions');
    const cli = await import('../../../src-main/cli/transition-check');
    for (const status of DELIVERY_STATUSES) {
      for (const action of ACTIONS) {
        const d = { id: 'd1', post_id: 'p1', status, platform: 'x' as const };
        const allowed = table.canDo(status, action);
        expect(ui.offersOn(d, action), `${status} ${action} in the UI`).toBe(allowed);
        expect(ui.offersOnPost([d], action), `${status} ${action} on a post in the UI`).toBe(allowed);
        const why = table.whyNot(status, action, 'X');
        expect(ui.whyNotOn(d, action)).toBe(why);
        expect(cli.refusal([d], 'd1', action), `${status} ${action} in the CLI`).toBe(why);
        // By the parent post's id too.
        expect(cli.refusal([d], 'p1', action)).toBe(why);
      }
    }
  });

  it('is what the sandbox answers over HTTP', async () => {
    const sb = await startTestSandbox(demoFixture({ publishFailures: { linkedin: 99 } }));
    try {
      // The failed ones first: making them moves the clock, which must not publish the others.
      const made: [DeliveryStatus, DeliveryAction, Delivery][] = [];
      const order: DeliveryStatus[] = ['failed', ...DELIVERY_STATUSES.filter((s) => s !== 'failed')];
      for (const status of order) {
        for (const action of ACTIONS) made.push([status, action, await deliveryIn(sb, status)]);
      }
      for (const [status, action, d] of made) {
        const done = await sandboxDoes(sb, d, action);
        if (done !== null)
          expect(done, `${status} ${action} in the sandbox`).toBe(table.canDo(status, action));
      }
    } finally {
      await sb.close();
    }
  });
});

describe('one cell flipped: a published delivery made deletable', () => {
  it('flips the UI, the CLI and the sandbox alike', async () => {
    vi.resetModules();
    vi.doMock(TABLE, async (importOriginal) => {
      const real = await importOriginal<typeof table>();
      const flipped = {
        ...real.DELIVERY_TRANSITIONS,
        posted: { ...real.DELIVERY_TRANSITIONS.posted, delete: true },
      };
      const canDo = (s: DeliveryStatus, a: DeliveryAction) => flipped[s][a];
      const statusesAllowing = (a: DeliveryAction) => DELIVERY_STATUSES.filter((s) => flipped[s][a]);
      return {
        ...real,
        DELIVERY_TRANSITIONS: flipped,
        canDo,
        statusesAllowing,
        DELETABLE_STATUSES: statusesAllowing('delete'),
        whyNot: (s: DeliveryStatus, a: DeliveryAction, p: string) =>
          canDo(s, a) ? null : real.whyNot(s, a, p),
      };
    });
    const ui = await import('../../../src-renderer/src/features/posts/delivery-actions');
    const cli = await import('../../../src-main/cli/transition-check');
    const { startTestSandbox: start } = await import('../../helpers/sandbox');
    const posted = { id: 'd1', post_id: 'p1', status: 'posted' as const, platform: 'x' as const };

    expect(table.canDo('posted', 'delete')).toBe(false); // the real table, imported before the mock
    expect(ui.offersOn(posted, 'delete')).toBe(true);
    expect(ui.whyNotOn(posted, 'delete')).toBeNull();
    expect(cli.refusal([posted], 'd1', 'delete')).toBeNull();

    const sb = await start();
    try {
      const res = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
        body: { caption: 'out now', targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
      });
      const id = res.body.social_posts[0]!.id as string;
      const del = await sb.api('DELETE', '/api/cli/posts', { body: { id } });
      expect(del.status).toBe(200);
      // Other cells are untouched: a published post still cannot be edited.
      const again = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
        body: { caption: 'out again', targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
      });
      const edit = await sb.api('PATCH', '/api/cli/posts', {
        body: { id: again.body.social_posts[0]!.id, caption: 'no' },
      });
      expect(edit.status).toBe(400);
    } finally {
      await sb.close();
    }
  });

  it('and without the flip, the sandbox refuses that delete with 409', async () => {
    const sb = await startTestSandbox();
    try {
      const res = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
        body: { caption: 'out now', targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
      });
      const del = await sb.api('DELETE', '/api/cli/posts', { body: { id: res.body.social_posts[0]!.id } });
      expect(del.status).toBe(409);
    } finally {
      await sb.close();
    }
  });
});
