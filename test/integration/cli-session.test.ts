import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { connectSandbox } from '../../src-main/core/sandbox-link';
import { runCliHere } from '../helpers/cli-process';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-session-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs the CLI in this process with captured streams: the same code path as `postdesk …`. */
async function cli(args: string[], env: Record<string, string> = {}, stdin = '') {
  const run = await runCliHere(args, { POSTDESK_DATA_DIR: dataDir, PATH: process.env.PATH, ...env }, stdin);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = (): any => JSON.parse(run.out);
  return { ...run, json };
}

const TIKTOK = '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a01';
const X = '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a05';
// Text-only posts go to LinkedIn, which takes them (TikTok needs a video or photos).
const LINKEDIN = '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a04';

describe('postdesk --sandbox: a session whose state lasts between commands', () => {
  it('accounts, schedule a post, list it, update, delete', async () => {
    const accounts = await cli(['--sandbox', 'accounts', '--json']);
    expect(accounts.code).toBe(0);
    expect(accounts.json().accounts.map((a: { id: string }) => a.id)).toContain(TIKTOK);

    const human = await cli(['--sandbox', 'accounts']);
    expect(human.out).toContain('Demo TikTok');
    expect(human.out).not.toContain(String.fromCharCode(27)); // no colours when stdout is not a TTY

    const created = await cli([
      '--sandbox',
      'posts',
      'create',
      '--caption',
      'Hello from the CLI',
      '-t',
      `linkedin:${LINKEDIN}`,
      '--at',
      '2099-06-01T09:00:00Z',
    ]);
    expect(created.code).toBe(0);
    expect(created.out).toContain('scheduled for 2099-06-01T09:00:00Z');

    const list = await cli(['posts', 'list', '--sandbox', '--status', 'scheduled', '--json']);
    const row = list.json().posts.find((p: { caption: string }) => p.caption === 'Hello from the CLI');
    expect(row).toMatchObject({
      platform: 'linkedin',
      status: 'scheduled',
      scheduled_at: expect.stringMatching(/^2099-06-01T09:00/),
    });

    const upd = await cli(['--sandbox', '--json', 'posts', 'update', row.id, '--caption', 'Edited']);
    expect(upd.json().social_posts[0].caption).toBe('Edited');
    expect((await cli(['--sandbox', 'posts', 'delete', row.id])).code).toBe(0);
    const gone = await cli(['--sandbox', '--json', 'posts', 'delete', row.id]);
    expect(gone.code).toBe(3);
    expect(gone.json().error).toMatchObject({ name: 'ApiError', status: 404 });
  });

  it('publish now, drafts, articles, analytics, skills, automations, status', async () => {
    const now = await cli(['--sandbox', '--json', 'posts', 'create', '-c', 'Now!', '-t', `x:${X}`, '--now']);
    expect(now.json()).toMatchObject({ state: 'sent', kind: 'single', action: 'publish' });
    const draft = await cli([
      '--sandbox',
      '--json',
      'posts',
      'create',
      '-c',
      'Later',
      '-t',
      `x:${X},linkedin:${LINKEDIN}`,
      '--draft',
    ]);
    expect(draft.json()).toMatchObject({ state: 'sent', kind: 'bulk' });
    expect(draft.json().social_post_ids).toHaveLength(2);

    const art = await cli([
      '--sandbox',
      '--json',
      'articles',
      'publish',
      '--title',
      'T',
      '--body',
      '# Hi',
      '-d',
      'devto,x',
    ]);
    expect(art.code).toBe(0);
    const articleId = art.json().article.id as string;
    expect(
      (await cli(['--sandbox', '--json', 'articles', 'list']))
        .json()
        .articles.map((a: { id: string }) => a.id),
    ).toContain(articleId);
    expect((await cli(['--sandbox', 'articles', 'delete', articleId])).code).toBe(0);

    expect((await cli(['--sandbox', '--json', 'analytics'])).json().totals).toHaveProperty('likes');
    const skills = await cli(['--sandbox', '--json', 'skills', 'list']);
    const skillId = skills.json().skills[0].id as string;
    const md = await cli(['--sandbox', 'skills', 'show', skillId, '--markdown']);
    expect(md.out).toMatch(/^# /);
    expect(
      (await cli(['--sandbox', '--json', 'automations', 'list'])).json().automations.length,
    ).toBeGreaterThan(0);

    const status = await cli(['--sandbox', '--json', 'status']);
    expect(status.json()).toMatchObject({ api_key_source: 'sandbox', service: { ok: true, accounts: 5 } });
  });

  it('exit codes: 2 bad input with field and limit, 3 service refusal, 4 network error', async () => {
    const long = await cli(['--sandbox', 'posts', 'create', '-c', 'x'.repeat(2201), '-t', `x:${X}`, '--now']);
    expect(long.code).toBe(2);
    expect(long.err).toContain('caption: must be at most 2200 characters');

    const mode = await cli(['--sandbox', '--json', 'posts', 'create', '-c', 'x', '-t', `x:${X}`]);
    expect(mode.code).toBe(2);
    expect(mode.json().error.issues[0].path).toBe('mode');

    expect((await cli(['--sandbox', 'posts', 'list', '--limit', '101'])).code).toBe(2);
    expect((await cli(['--sandbox', 'nonsense'])).code).toBe(2);
    const setting = await cli(['config', 'set', 'concurrency', '99']);
    expect([setting.code, setting.err]).toEqual([
      2,
      expect.stringContaining('concurrency: must be at most 16'),
    ]);

    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const net = await cli(['--json', '--base-url', `http://127.0.0.1:${port}`, 'accounts'], {
      POSTDESK_API_KEY: 'pd_unused_key_0000000000',
      POSTDESK_HTTP_RETRIES: '0',
    });
    expect(net.code).toBe(4);
    expect(net.json().error).toMatchObject({ name: 'NetworkError', kind: 'connect', maybeCommitted: false });

    const noUrl = await cli(['accounts']);
    expect(noUrl.code).toBe(1);
    expect(noUrl.err).toContain('--sandbox');
  });

  it('settings round-trip through `config`', async () => {
    expect((await cli(['config', 'set', 'missedRunPolicy', 'skip'])).code).toBe(0);
    expect((await cli(['config', 'set', 'baseUrl', 'https://api.example.com'])).code).toBe(0);
    expect((await cli(['--json', 'config', 'show'])).json()).toMatchObject({
      missedRunPolicy: 'skip',
      baseUrl: 'https://api.example.com',
    });
    await cli(['config', 'unset', 'baseUrl']);
    expect((await cli(['--json', 'config'])).json().baseUrl).toBeNull();
  });

  it('reuses a sandbox another process registered for the data directory', async () => {
    const link = await connectSandbox(dataDir, startSandboxInProcess);
    try {
      const status = await cli(['--sandbox', '--json', 'status']);
      expect(status.json().base_url).toBe(link.url);
    } finally {
      await link.close();
    }
  });
});
