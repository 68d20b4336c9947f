import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../../src-shared/ipc/bridge-error';
import { CHANNELS, type InputOf, type InvokeChannelName } from '../../../src-shared/ipc/contract';
import { createApiClient } from '../../../src-main/core/api/client';
import { startSandboxInProcess } from '../../../src-main/cli/sandbox-connect';
import type { StartedSandbox } from '../../../src-main/core/sandbox-link';
import { grant, makeBridge, type TestBridge } from './helpers';
import { CONFIRMS_ADDRESS } from '../../helpers/confirm';

/**
 * A whole session through the dispatcher (what both hosts run): connect with a key, call every invoke
 * channel, watch every event. The key must never be in any answer or event.
 */

interface Ctx {
  baseUrl: string;
  key: string;
  accountId: string;
  platform: 'tiktok' | 'instagram' | 'linkedin' | 'x';
  postId: string;
  deliveryId: string;
  mediaId: string;
  articleId: string;
  skillId: string;
  /** A grant of a PNG, as main's open dialog mints it. */
  png: string;
}

type Sample<N extends InvokeChannelName> = InputOf<N> | ((ctx: Ctx) => InputOf<N>);
/** One input per invoke channel: a channel added to the contract without a sample does not compile. */
type Samples = { [N in InvokeChannelName]: Sample<N> };

const later = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString();

const SAMPLES: Samples = {
  'app:info': undefined,
  'app:openExternal': { url: 'https://www.linkedin.com/feed/' },
  'app:pendingRoute': undefined,
  'connection:status': undefined,
  'connection:connect': (c) => ({ base_url: c.baseUrl, api_key: c.key }),
  'connection:useOffline': undefined,
  'connection:disconnect': undefined,
  'accounts:list': undefined,
  'posts:list': { limit: 100 },
  'posts:create': (c) => ({
    caption: 'secrets scenario',
    targets: [{ social_account_id: c.accountId, platform: c.platform }],
    scheduled_at: later(3),
  }),
  'posts:update': (c) => ({ id: c.postId, caption: 'secrets scenario, edited' }),
  'posts:delete': (c) => ({ id: c.deliveryId }),
  'posts:checkFailures': undefined,
  'posts:queued': undefined,
  'posts:decideQueued': { entry_id: 'no-such-entry', decision: 'drop' },
  'postGroups:list': { limit: 100 },
  'postGroups:changeMany': (c) => ({ post_ids: [c.postId], change: { kind: 'shift', by_ms: 3_600_000 } }),
  'postGroups:retry': (c) => ({ updates: [{ post_id: c.postId, scheduled_at: later(5) }] }),
  'postGroups:thumbnail': (c) => ({ post_id: c.postId }),
  'postGroups:duplicate': (c) => ({ post_id: c.postId }),
  'postGroups:publishNow': (c) => ({ post_id: c.postId }),
  'postGroups:retryDeliveries': (c) => ({ post_id: c.postId, when: { kind: 'now' } }),
  'calendar:range': { start: later(-1), end: later(30) },
  'calendar:reschedule': (c) => ({ id: c.deliveryId, scheduled_at: later(4) }),
  'media:add': (c) => ({ grants: [c.png] }),
  'files:pick': { purpose: 'media' },
  'media:inspect': (c) => ({ id: c.mediaId }),
  'media:upload': (c) => ({ id: c.mediaId }),
  'media:convert': (c) => ({ id: c.mediaId }),
  'media:remove': (c) => ({ id: c.mediaId }),
  'media:tools': undefined,
  'compose:current': undefined,
  'compose:save': (c) => ({
    id: null,
    content: {
      caption: 'secrets scenario',
      account_ids: [c.accountId],
      media: [],
      when: 'now',
      local_at: '',
    },
  }),
  'compose:open': { id: '00000000-0000-4000-8000-000000000000' },
  'compose:startNew': undefined,
  'compose:drafts': undefined,
  'compose:discard': { id: '00000000-0000-4000-8000-000000000000' },
  'compose:library': undefined,
  'bulk:plan': { source: { text: 'caption,scheduled_at\nhello,2031-01-01T00:00:00Z\n', name: 'x.csv' } },
  'bulk:submit': { plan_id: 'no-such-plan' },
  'bulk:history': undefined,
  'bulk:inspect': { batch_id: '00000000-0000-4000-8000-000000000000' },
  'bulk:resubmitFailed': { batch_id: '00000000-0000-4000-8000-000000000000' },
  'articles:list': {},
  'articles:create': {
    title: 'Scenario',
    body_markdown: '# Hello',
    destinations: ['devto'],
    action: 'publish',
  },
  'articles:delete': (c) => ({ id: c.articleId }),
  'analytics:overview': {},
  'analytics:post': (c) => ({ post_id: c.postId }),
  'skills:list': undefined,
  'skills:get': (c) => ({ id: c.skillId }),
  'automations:list': undefined,
  'automations:runNow': { id: 'no-such-automation' },
  'automations:create': (c) => ({
    name: 'Secrets scenario',
    schedule: { cron: '0 9 * * *', timezone: 'UTC' },
    targets: [{ social_account_id: c.accountId, platform: c.platform }],
  }),
  'automations:update': { id: '00000000-0000-4000-8000-000000000000', name: 'Renamed' },
  'automations:pause': { id: '00000000-0000-4000-8000-000000000000' },
  'automations:resume': { id: '00000000-0000-4000-8000-000000000000' },
  'automations:remove': { id: '00000000-0000-4000-8000-000000000000' },
  'runs:list': {},
  'runs:get': { id: 'no-such-run' },
  'inbox:list': {},
  'schedule:upcoming': undefined,
  'watch:unconfirmed': undefined,
  'inbox:approve': (c) => ({ post_ids: [c.postId] }),
  'inbox:reject': (c) => ({ post_ids: [c.postId] }),
  'inbox:edit': (c) => ({ post_id: c.postId, caption: 'secrets scenario, inbox' }),
  'inbox:preview': (c) => ({ post_id: c.postId, index: 0 }),
  'exports:run': { what: { kind: 'posts' }, format: 'json', export_id: 'secrets-export' },
  'updates:state': undefined,
  'updates:check': undefined,
  'updates:restartNow': undefined,
  'commandLine:status': undefined,
  'commandLine:install': undefined,
  'commandLine:uninstall': undefined,
  'executor:status': undefined,
  'executor:pause': undefined,
  'executor:resume': undefined,
  'executor:syncNow': undefined,
  'executor:metrics': undefined,
  'settings:get': undefined,
  'settings:update': { concurrency: 2 },
  'secrets:set': (c) => ({ api_key: c.key }),
  'secrets:has': undefined,
  'secrets:clear': undefined,
  'queue:schedules': undefined,
  'queue:set': (c) => ({
    account_id: c.accountId,
    schedule: { timezone: 'Europe/Berlin', slots: [{ weekday: 1, time: '09:00' }] },
  }),
  'queue:upcoming': { count: 3 },
  'queue:plan': (c) => ({ targets: [{ social_account_id: c.accountId, platform: c.platform }] }),
  'queue:add': (c) => ({
    caption: 'secrets scenario, queued',
    targets: [{ social_account_id: c.accountId, platform: c.platform }],
  }),
  'queue:move': (c) => ({ post_id: c.postId, to: later(5) }),
  'assistant:proposals': { all: true },
  'assistant:approve': { id: 'prop_000000000000' },
  'assistant:reject': { id: 'prop_000000000000' },
  'assistant:activity': { limit: 10 },
  'assistant:tools': {},
  'assistant:connection': {},
  'assistant:test': {},
};

/** Run last: they end the connection the others need. */
const LAST = ['secrets:clear', 'connection:disconnect'];

let sandbox: StartedSandbox;
let tb: TestBridge;

beforeAll(async () => {
  sandbox = await startSandboxInProcess({ port: 0, host: '127.0.0.1' });
  tb = await makeBridge(
    async () => ({
      baseUrl: sandbox.url,
      client: createApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }),
    }),
    // Connect's address is the person's to confirm; nothing else is confirmed.
    { confirm: CONFIRMS_ADDRESS },
  );
});
afterAll(async () => {
  await tb?.close();
  await sandbox?.close();
});

describe('secrets never cross the bridge', () => {
  it('no answer and no event of a whole session carries the key', async () => {
    const { dispatcher } = tb.bridge;
    const seen: string[] = [];
    const sub = dispatcher.subscribe((channel, payload) => seen.push(JSON.stringify({ channel, payload })));
    const results = new Map<string, BridgeResult<unknown>>();
    const png = join(tb.dir, 'pic.png');
    await copyFile(new URL('../../../resources/icon.png', import.meta.url), png);
    const ctx: Ctx = {
      baseUrl: sandbox.url,
      key: sandbox.apiKey,
      accountId: '',
      platform: 'x',
      postId: '',
      deliveryId: '',
      mediaId: '',
      articleId: '',
      skillId: '',
      png: (await grant(tb, png))[0]!,
    };
    const run = async (name: InvokeChannelName) => {
      const sample = SAMPLES[name] as unknown;
      const input = typeof sample === 'function' ? (sample as (c: Ctx) => unknown)(ctx) : sample;
      const r = await dispatcher.invoke(name, input);
      results.set(name, r);
      seen.push(JSON.stringify(r));
      return r as BridgeResult<Record<string, never>>;
    };

    expect((await run('connection:connect')).ok).toBe(true);
    const accounts = (await run('accounts:list')) as BridgeResult<{
      accounts: { id: string; platform: string }[];
    }>;
    const acct = accounts.ok ? accounts.value.accounts.find((a) => a.platform !== 'youtube') : undefined;
    ctx.accountId = acct!.id;
    ctx.platform = acct!.platform as Ctx['platform'];
    const created = (await run('posts:create')) as BridgeResult<{
      post: { id: string };
      social_posts: { id: string }[];
    }>;
    expect(created.ok).toBe(true);
    if (created.ok) {
      ctx.postId = created.value.post.id;
      ctx.deliveryId = created.value.social_posts[0]!.id;
    }
    const added = (await run('media:add')) as BridgeResult<{ files: { id: string }[] }>;
    ctx.mediaId = added.ok ? added.value.files[0]!.id : '';
    const article = (await run('articles:create')) as BridgeResult<{ article: { id: string } }>;
    ctx.articleId = article.ok ? article.value.article.id : '';
    const skills = (await run('skills:list')) as BridgeResult<{ skills: { id: string }[] }>;
    ctx.skillId = skills.ok ? skills.value.skills[0]!.id : '';

    const order = CHANNELS.filter((c) => c.def.kind === 'invoke')
      .map((c) => c.name as InvokeChannelName)
      .filter((n) => !results.has(n) && !LAST.includes(n) && n !== 'posts:delete' && n !== 'media:remove');
    for (const name of [...order, 'posts:delete', 'media:remove', ...LAST] as InvokeChannelName[])
      await run(name);
    sub.dispose();

    // every channel ran, and answered with a result or a typed error
    for (const c of CHANNELS.filter((x) => x.def.kind === 'invoke')) {
      const r = results.get(c.name);
      expect(r, c.name).toBeDefined();
      if (r && !r.ok) expect(r.error.kind, c.name).toMatch(/^[a-z_]+$/);
    }
    // and the scenario did real work against the sandbox
    for (const n of [
      'accounts:list',
      'posts:update',
      'calendar:range',
      'media:upload',
      'articles:create',
      'skills:get',
      'automations:create',
    ]) {
      expect({ [n]: results.get(n)?.ok }).toEqual({ [n]: true });
    }
    expect(results.get('secrets:has')).toEqual({ ok: true, value: true });
    expect(seen.some((s) => s.includes('media:didHashProgress'))).toBe(true);

    const traffic = seen.join('\n');
    expect(traffic.length).toBeGreaterThan(1000);
    expect(traffic).not.toContain(sandbox.apiKey);
  });

  it('a key set after connecting, and a wrong key tried on Connect, never come back either', async () => {
    const { dispatcher } = tb.bridge;
    const out: string[] = [];
    const sub = dispatcher.subscribe((c, p) => out.push(JSON.stringify({ c, p })));
    const wrong = 'pk_wrong_key_never_to_be_seen_again_42';
    const r1 = await dispatcher.invoke('connection:connect', { base_url: sandbox.url, api_key: wrong });
    expect(r1).toMatchObject({ ok: false, error: { kind: 'api', status: 401 } });
    out.push(JSON.stringify(r1));
    const r2 = await dispatcher.invoke('secrets:set', { api_key: wrong });
    out.push(JSON.stringify(r2), JSON.stringify(await dispatcher.invoke('connection:status', undefined)));
    out.push(JSON.stringify(await dispatcher.invoke('secrets:has', undefined)));
    sub.dispose();
    expect(out.join('\n')).not.toContain(wrong);
  });
});
