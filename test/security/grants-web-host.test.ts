import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { BridgeResult } from '../../src-shared/ipc/bridge-error';
import { FILE_NAME_HEADER, FILES_PATH, TOKEN_HEADER } from '../../src-shared/ipc/ws-protocol';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import type { GrantedFile } from '../../src-shared/ipc/files';
import type { RunRecord } from '../../src-shared/ipc/runs';
import type { RunningWeb } from '../../src-main/cli/web/run-web';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { DEMO_ACCOUNTS, DEMO_AUTOMATIONS } from '../../src-sandbox/demo-fixture';
import { scaled } from '../helpers/timeouts';

/**
 * Point 4 of issue #10 over the real `postdesk web --sandbox` and its WebSocket, holding the launch secret:
 * what a page (or anyone with the secret) can make main do. Each attack first, then the grant that works.
 */

let host: TestWebHost;
let web: RunningWeb;
let printed: readonly string[];
let dir: string;
let page: WsBridge;
let secret: string;
/** A file the user never chose, in the shape of a shell rc file with a credential in it. */
let rcFile: string;
const RC_LINES = ['export AWS_SECRET_ACCESS_KEY=rc-secret-4f9c2a', 'alias ll="ls -la"'];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const dropped = (name: string, bytes: Buffer, type: string) => ({
  name,
  size: bytes.length,
  type,
  arrayBuffer: async () =>
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
});

beforeAll(async () => {
  // With --sandbox the executor runs here too: a command the page sets would really be run.
  host = await startTestWebHost('postdesk-grants-web-', { executor: true });
  ({ web, dir, page, printed, token: secret } = host);
  rcFile = join(dir, 'home', '.bashrc');
  await mkdir(dirname(rcFile), { recursive: true });
  await writeFile(rcFile, `${RC_LINES.join('\n')}\n`);
});
afterAll(() => host?.close());

/** A call as a hostile page makes it: any channel, any input, past the typed bridge. */
async function raw(channel: string, input: unknown): Promise<BridgeResult<unknown>> {
  const ws = new WebSocket(`${web.host.origin.replace('http', 'ws')}/bridge?token=${secret}`, {
    origin: web.host.origin,
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answer = new Promise<BridgeResult<unknown>>((resolve) =>
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { t: string; id?: number; result?: BridgeResult<unknown> };
      if (m.t === 'result' && m.id === 1) resolve(m.result as BridgeResult<unknown>);
    }),
  );
  ws.send(JSON.stringify({ t: 'invoke', id: 1, channel, input }));
  const result = await answer;
  ws.close();
  return result;
}

describe('postdesk web: the page holds grants, not powers', () => {
  it('cannot make the executor run a program of its choosing', async () => {
    const marker = join(dir, 'pwned');
    const set = await raw('settings:update', {
      agent_commands: [{ agent_type: 'shell', command: '/bin/sh', args: ['-c', `echo pwned > ${marker}`] }],
    });
    expect(set.ok).toBe(false);
    expect(!set.ok && set.error.kind).toBe('forbidden');
    // Said for a person: where to confirm, no command line, no field path.
    expect(!set.ok && set.error.message).toMatch(/terminal/i);
    expect(!set.ok && set.error.message).not.toMatch(/postdesk config|agent_commands|\/bin\/sh/);
    const ffmpeg = await raw('settings:update', { ffmpeg_path: '/bin/sh' });
    expect(ffmpeg.ok).toBe(false);
    const settings = await page.bridge.settings.get();
    expect(settings.ok && settings.value.agent_commands).toEqual([]);
    expect(settings.ok && settings.value.ffmpeg_path).toBeNull();

    // Run an automation now: whatever agent runs, it is not the page's shell.
    expect((await page.bridge.connection.useOffline()).ok).toBe(true);
    const finished = new Promise<RunRecord>((resolve) =>
      page.bridge.runs.onDidChange(({ run }) => {
        if (['completed', 'failed', 'missed', 'skipped'].includes(run.state)) resolve(run);
      }),
    );
    let started: BridgeResult<unknown> = { ok: false, error: { kind: 'unavailable', message: '' } };
    for (let i = 0; i < 50 && !started.ok; i++) {
      started = await page.bridge.automations.runNow({ id: DEMO_AUTOMATIONS.dailyTips });
      if (!started.ok) await new Promise((r) => setTimeout(r, 100));
    }
    expect(started.ok).toBe(true);
    await finished;
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot send the stored API key to an address of its choosing', async () => {
    const key = /^api key: (.+)$/m.exec(printed.join('\n'))?.[1];
    expect(key).toBeTruthy();
    expect((await page.bridge.connection.connect({ base_url: web.sandboxUrl!, api_key: key! })).ok).toBe(
      true,
    );
    const heard: string[] = [];
    const thief = createServer((req, res) => {
      heard.push(`${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"accounts":[]}');
    });
    await new Promise<void>((r) => thief.listen(0, '127.0.0.1', r));
    const thiefUrl = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;
    try {
      for (const patch of [{ base_url: thiefUrl }, { alias_url: thiefUrl }, { proxy_url: thiefUrl }]) {
        const set = await raw('settings:update', patch);
        expect(set.ok, JSON.stringify(patch)).toBe(false);
        expect(!set.ok && set.error.kind).toBe('forbidden');
      }
      const settings = await page.bridge.settings.get();
      expect(settings.ok && settings.value.base_url).not.toBe(thiefUrl);
      expect((await page.bridge.accounts.list()).ok).toBe(true);
      expect(heard).toEqual([]);
    } finally {
      await new Promise((r) => thief.close(r));
      expect((await page.bridge.connection.useOffline()).ok).toBe(true);
    }
  });

  it('cannot have main read a file it names: bulk:plan takes no path and echoes nothing of it', async () => {
    const planned = await raw('bulk:plan', { source: { path: rcFile } });
    expect(planned.ok).toBe(false);
    expect(!planned.ok && planned.error.kind).toBe('invalid_input');
    const said = JSON.stringify(planned);
    for (const line of RC_LINES) expect(said).not.toContain(line);
    expect(said).not.toContain('rc-secret-4f9c2a');
  });

  it('cannot register a file by its path (media:add), nor by a grant it made up', async () => {
    const added = await raw('media:add', { paths: [rcFile] });
    expect(added.ok).toBe(false);
    expect(!added.ok && added.error.kind).toBe('invalid_input');
    const forged = await raw('media:add', { grants: ['6f1c2b4e-8d3a-4c5b-9e7f-0a1b2c3d4e5f'] });
    expect(forged.ok).toBe(false);
    expect(!forged.ok && forged.error.kind).toBe('not_found');
  });

  it('a CSV sent from the page may not name files on this computer as media', async () => {
    const csv = `caption,targets,scheduled_at,media\n"Hi",linkedin:${DEMO_ACCOUNTS.linkedin},2031-01-01T09:00:00Z,${rcFile}\n`;
    const granted = await page.bridge.files.grant([dropped('plan.csv', Buffer.from(csv), 'text/csv')]);
    expect(granted.ok).toBe(true);
    const grant = granted.ok ? granted.value.files[0]?.grant : undefined;
    const plan = await page.bridge.bulk.plan({ source: { grant: grant! } });
    expect(plan.ok).toBe(true);
    const row = plan.ok ? plan.value.rows[0] : undefined;
    expect(row?.ok).toBe(false);
    expect(row?.issues.map((i) => i.field)).toEqual(['media']);
    const text = await page.bridge.bulk.plan({ source: { text: csv, name: 'pasted.csv' } });
    expect(text.ok && text.value.rows[0]?.issues.map((i) => i.field)).toEqual(['media']);
    expect(JSON.stringify([plan, text])).not.toContain('rc-secret-4f9c2a');
  });

  it.skipIf(process.platform === 'win32')(
    'nor does submitting it: the valid rows go, the named file is never opened',
    async () => {
      // A named pipe: opening it to read would block until someone writes, so the submit would hang.
      const fifo = join(dir, 'home', 'never-opened.png');
      execFileSync('mkfifo', [fifo]);
      const later = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
      const csv = [
        'caption,targets,scheduled_at,media',
        `"Sent",linkedin:${DEMO_ACCOUNTS.linkedin},${later(30)},`,
        `"Not sent",linkedin:${DEMO_ACCOUNTS.linkedin},${later(31)},${fifo}`,
      ].join('\n');
      const granted = await page.bridge.files.grant([dropped('two.csv', Buffer.from(csv), 'text/csv')]);
      const grant = granted.ok ? granted.value.files[0]!.grant : '';
      const plan = await page.bridge.bulk.plan({ source: { grant } });
      expect(plan.ok && plan.value.valid_count).toBe(1);
      const sent = await page.bridge.bulk.submit({ plan_id: plan.ok ? plan.value.plan_id : '' });
      expect(sent).toMatchObject({ ok: true, value: { created_count: 1, failed_count: 0 } });
    },
    scaled(15_000),
  );

  it('an upload is stored privately and its grant posts with the file, end to end', async () => {
    const granted = await page.bridge.files.grant([dropped('photo.png', PNG, 'image/png')]);
    expect(granted.ok).toBe(true);
    const file = (granted.ok ? granted.value.files[0] : undefined) as GrantedFile;
    expect(file).toMatchObject({ name: 'photo.png', size: PNG.length, folder: false });

    const added = await page.bridge.media.add({ grants: [file.grant] });
    expect(added.ok).toBe(true);
    const media = added.ok ? added.value.files[0] : undefined;
    expect(media).toMatchObject({ name: 'photo.png', content_type: 'image/png' });
    const uploaded = await page.bridge.media.upload({ id: media!.id });
    expect(uploaded.ok).toBe(true);
    const asset = uploaded.ok ? uploaded.value.asset_id : '';
    const created = await page.bridge.posts.create({
      caption: 'from an uploaded file',
      targets: [{ social_account_id: DEMO_ACCOUNTS.linkedin, platform: 'linkedin' }],
      media: [{ asset_id: asset }],
    });
    expect(created.ok).toBe(true);
    const postId = created.ok ? created.value.post.id : '';
    const listed = await page.bridge.posts.list({ limit: 100, refresh: true });
    const mine = listed.ok ? listed.value.posts.filter((p) => p.post_id === postId) : [];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]?.media?.[0]?.asset_id).toBe(asset);

    // What the browser sent lies in a private folder: 0700 folders, a 0600 file.
    const stored = web.bridge.grants.get(file.grant)?.path;
    expect(stored).toBeTruthy();
    expect((await stat(stored!)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(stored!))).mode & 0o777).toBe(0o700);
    expect(await readFile(stored!)).toEqual(PNG);
  });

  it('the upload route wants the secret', async () => {
    const res = await fetch(`${web.host.origin}${FILES_PATH}`, {
      method: 'POST',
      headers: { [FILE_NAME_HEADER]: 'x.png', [TOKEN_HEADER]: 'not-the-secret-not-the-secret' },
      body: PNG,
    });
    expect(res.status).toBe(403);
  });
});
