/**
 * On a clock that follows real time, a scheduled delivery is published before a request reads it, without
 * waiting for the sandbox's 1 s tick (src-sandbox/due-before-read.ts): the earliest due time is kept and
 * moved earlier as rows start waiting, so a read right after a delivery falls due must find it posted. The
 * tick may still run first in a round by chance, so each case runs three rounds: a sandbox that missed a
 * newly waiting row would pass all three only if the tick happened to land in each short window.
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
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function statusOf(id: string): Promise<string | undefined> {
  const { posts } = ListPostsResponse.parse((await sb.api('GET', '/api/cli/posts?limit=100')).body);
  return posts.find((d) => d.id === id)?.status;
}

describe('due work before a read, on a real-time clock', () => {
  it('publishes a delivery created as scheduled once it falls due, at the next read', async () => {
    for (let round = 0; round < 3; round++) {
      // A read first: the sandbox has just looked and found nothing due soon.
      await sb.api('GET', '/api/cli/posts');
      const made = await sb.api('POST', '/api/cli/posts', {
        body: { caption: `soon ${round}`, scheduled_at: inMs(150), targets: [target] },
      });
      expect(made.status).toBe(201);
      const id = CreatePostResponse.parse(made.body).social_posts[0]!.id;
      await sleep(200);
      expect(await statusOf(id)).toBe('posted');
    }
  });

  it('publishes a draft scheduled by an update once it falls due, at the next read', async () => {
    for (let round = 0; round < 3; round++) {
      const made = await sb.api('POST', '/api/cli/posts', {
        body: { caption: `draft ${round}`, action: 'draft', targets: [target] },
      });
      const id = CreatePostResponse.parse(made.body).social_posts[0]!.id;
      await sb.api('GET', '/api/cli/posts');
      const patch = await sb.api('PATCH', '/api/cli/posts', {
        body: { id, status: 'scheduled', scheduled_at: inMs(150) },
      });
      expect(patch.status).toBe(200);
      await sleep(200);
      expect(await statusOf(id)).toBe('posted');
    }
  });
});
