/**
 * On a clock that follows real time, a scheduled delivery is published before a request reads it, without
 * waiting for the sandbox's 1 s tick (src-sandbox/due-before-read.ts): the earliest due time is kept and
 * moved earlier as rows start waiting, so a read right after a delivery falls due must find it posted. The
 * tick may still run first in a round by chance, so each case runs five rounds: a sandbox that missed a
 * newly waiting row would pass all five only if the tick happened to land in each short window (about a
 * third of the tick each, so about 0.4 % of the time).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreatePostResponse, ListPostsResponse } from '../../src-shared/api';
import { IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset(demoFixture({ now: null })));

const target = { social_account_id: IDS.accounts.x, platform: 'x' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROUNDS = 5;
/** How far ahead each delivery falls due: well inside the sandbox's 1 s tick, so the tick rarely runs first. */
const LEAD_MS = 300;

/**
 * Sends a request that schedules something LEAD_MS ahead, and waits until that time has passed. A machine too
 * loaded to get the request there in time is answered 400 (a time in the past): that round proves nothing,
 * and it is sent again with a fresh time rather than failing the test.
 */
async function dueSoon(send: (at: string) => Promise<{ status: number; body: unknown }>, ok: number) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const due = Date.now() + LEAD_MS;
    const res = await send(new Date(due).toISOString());
    if (res.status === 400) continue;
    expect(res.status).toBe(ok);
    await sleep(Math.max(0, due + 50 - Date.now()));
    return res;
  }
  throw new Error(`no request reached the sandbox within ${LEAD_MS} ms in 10 tries`);
}

async function statusOf(id: string): Promise<string | undefined> {
  const { posts } = ListPostsResponse.parse((await sb.api('GET', '/api/cli/posts?limit=100')).body);
  return posts.find((d) => d.id === id)?.status;
}

describe('due work before a read, on a real-time clock', () => {
  it('publishes a delivery created as scheduled once it falls due, at the next read', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // A read first: the sandbox has just looked and found nothing due soon.
      await sb.api('GET', '/api/cli/posts');
      const made = await dueSoon(
        (at) =>
          sb.api('POST', '/api/cli/posts', {
            body: { caption: `soon ${round}`, scheduled_at: at, targets: [target] },
          }),
        201,
      );
      const id = CreatePostResponse.parse(made.body).social_posts[0]!.id;
      expect(await statusOf(id)).toBe('posted');
    }
  });

  it('publishes a draft scheduled by an update once it falls due, at the next read', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const made = await sb.api('POST', '/api/cli/posts', {
        body: { caption: `draft ${round}`, action: 'draft', targets: [target] },
      });
      const id = CreatePostResponse.parse(made.body).social_posts[0]!.id;
      await sb.api('GET', '/api/cli/posts');
      await dueSoon(
        (at) => sb.api('PATCH', '/api/cli/posts', { body: { id, status: 'scheduled', scheduled_at: at } }),
        200,
      );
      expect(await statusOf(id)).toBe('posted');
    }
  });
});
