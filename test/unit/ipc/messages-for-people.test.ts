import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc/bridge-error';
import { CHANNELS, type InvokeChannelName } from '../../../src-shared/ipc/contract';
import { CreatePostRequest } from '../../../src-shared/api/posts';
import { ERROR_CODES } from '../../../src-shared/api/errors';
import { createApiClient } from '../../../src-main/core/api/client';
import {
  ApiError,
  CredentialMissingError,
  NetworkError,
  ValidationError,
} from '../../../src-main/core/api/errors';
import { UploadError } from '../../../src-main/core/media/upload-errors';
import { KeychainUnavailableError } from '../../../src-main/core/secrets/secret-store';
import { BulkInterruptedError } from '../../../src-main/core/bulk/bulk';
import { toBridgeError } from '../../../src-main/core/bridge/bridge-fault';
import { NO_TERMINAL } from '../../../src-main/cli/web/terminal-confirm';
import { startSandboxInProcess } from '../../../src-main/cli/sandbox-connect';
import type { StartedSandbox } from '../../../src-main/core/sandbox-link';
import { createWsBridge } from '../../../src-shared/ipc/ws-client';
import { describeError, type ErrorContext } from '../../../src-renderer/src/app/describe-error';
import { mediaFixtures } from '../../helpers/media-fixtures';
import { grant, makeBridge, type TestBridge } from './helpers';
import { CONFIRMS_ADDRESS } from '../../helpers/confirm';
import { scaled } from '../../helpers/timeouts';

/**
 * Every message the bridge can carry to the page, as main writes it and as each screen shows it: each error
 * kind (made to happen for real where it can be: a closed port, a wrong key, the sandbox failing, a 404, a
 * 409, files the pipeline refuses, a broken CSV) and each validation message of every channel. None may
 * read like a developer's: no command to type, no errno, no temporary path, no raw field path, no channel or
 * operation name, no error code, no zod.
 */

const RULES: readonly (readonly [RegExp, string])[] = [
  [/`/, 'a backtick'],
  [/\bpostdesk (login|logout|config|media|bulk|executor|web|upload|runs|sandbox|posts)\b/, 'a CLI command'],
  [/\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/, 'an errno name'],
  [/(\/tmp\/|\/var\/folders\/|\/private\/var\/|AppData\\Local\\Temp|postdesk-bridge-)/, 'a temporary path'],
  [/\b[a-z][a-z_]*(?:\.\d+)+(?:\.[a-z_]+)*\b/, 'a raw field path'],
  [/\b[a-z]+_[a-z_]+\.[a-z_]+\b/, 'a raw field path'],
  [
    /\b(?:app|connection|accounts|posts|calendar|media|files|bulk|articles|analytics|skills|automations|runs|executor|settings|secrets|updates):[a-z][A-Za-z]+\b/,
    'a channel name',
  ],
  [/\b(?:list|create|update|delete|get|reserve|complete|start|bulk)[A-Z][A-Za-z]+\b/, 'an operation name'],
  [
    /Invalid (input|UUID|union)|\bexpected (void|string|number|boolean|array|object|never|undefined)\b|received undefined|Too (big|small):|nonoptional/,
    "zod's words",
  ],
  [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}\b/, 'an error code or variable name'],
  [/\b(a|an) unrecognised data\b/, 'a format label where a sentence belongs'],
];

interface Seen {
  readonly where: string;
  readonly text: string;
}
const seen: Seen[] = [];
const note = (where: string, text: string) => seen.push({ where, text });
const CONTEXTS: readonly (ErrorContext | undefined)[] = [undefined, 'delete', 'update', 'connect'];

/** What main sends, and what every screen (each context a screen describes errors in) shows of it. */
function noteError(where: string, error: Readonly<BridgeError>): void {
  note(`${where}: message`, error.message);
  for (const i of error.issues ?? []) note(`${where}: issue ${i.path}`, i.message);
  for (const ctx of CONTEXTS) note(`${where}: shown (${ctx ?? 'any screen'})`, describeError(error, ctx));
}
function noteResult(where: string, r: BridgeResult<unknown>): void {
  if (!r.ok) noteError(where, r.error);
}

const violations = () =>
  seen.flatMap(({ where, text }) =>
    RULES.filter(([re]) => re.test(text)).map(([, what]) => `${where} has ${what}: ${text}`),
  );

let sandbox: StartedSandbox;
let tb: TestBridge;

beforeAll(async () => {
  sandbox = await startSandboxInProcess({ port: 0, host: '127.0.0.1' });
  tb = await makeBridge(
    async () => ({
      baseUrl: sandbox.url,
      client: createApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }),
    }),
    {
      // Connect's address is the person's to confirm; nothing else is confirmed.
      confirm: CONFIRMS_ADDRESS,
      // The real client with every try it would make (the same failures, so the same messages), only the waits
      // between tries cut to milliseconds: the default backoff made this file wait ~34 s on the service failing.
      createClient: (o) =>
        createApiClient({
          ...o,
          retry: { ...o.retry, minTimeoutMs: 1, maxTimeoutMs: 5, maxRetryAfterMs: 5 },
        }),
    },
  );
}, scaled(60_000));
afterAll(async () => {
  await tb?.close();
  await sandbox?.close();
});

const invoke = (name: string, input?: unknown) => tb.bridge.dispatcher.invoke(name, input);
const control = (path: string, body: unknown) =>
  fetch(new URL(path, sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('messages the bridge carries are written for people', () => {
  it('every channel, with inputs that break its schema, and before a connection', async () => {
    const wrong: readonly unknown[] = [null, 42, 'x', [], {}];
    for (const c of CHANNELS.filter((x) => x.def.kind === 'invoke')) {
      const shape = (c.def as { input: { shape?: Record<string, unknown> } }).input.shape ?? {};
      const keys = Object.keys(shape);
      const inputs = [
        ...wrong,
        Object.fromEntries(keys.map((k) => [k, 42])),
        Object.fromEntries(keys.map((k) => [k, 'x'.repeat(5000)])),
        Object.fromEntries(keys.map((k) => [k, [{ a: 1 }]])),
        Object.fromEntries(keys.map((k) => [k, { nested: [1, 2] }])),
      ];
      for (const [i, input] of inputs.entries()) {
        // Channels that end the connection or change what runs are left to the scenarios below.
        if (['connection:disconnect', 'secrets:clear', 'updates:restartNow'].includes(c.name)) continue;
        noteResult(`${c.name} input #${i}`, await invoke(c.name, input));
      }
    }
    noteResult('an unknown channel', await invoke('nothing:here', {}));
    expect(seen.length).toBeGreaterThan(500);
  });

  it(
    'the service failing, refusing and not answering',
    async () => {
      // No service yet.
      for (const name of ['accounts:list', 'posts:list', 'articles:list', 'skills:list', 'automations:list'])
        noteResult(`${name} not connected`, await invoke(name, name === 'accounts:list' ? undefined : {}));

      // A closed port, then a wrong key.
      const port = await new Promise<number>((resolve) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const p = (s.address() as { port: number }).port;
          s.close(() => resolve(p));
        });
      });
      const closed = await invoke('connection:connect', {
        base_url: `http://127.0.0.1:${port}`,
        api_key: 'pd_live_aaaaaaaaaaaaaaaaaaaaaaaa',
      });
      expect(closed.ok).toBe(false);
      noteResult('connect to a closed port', closed);
      const status = (await invoke('connection:status')) as BridgeResult<{ message: string | null }>;
      if (status.ok && status.value.message) note('connection status after a failure', status.value.message);
      noteResult(
        'connect with a wrong key',
        await invoke('connection:connect', {
          base_url: sandbox.url,
          api_key: 'pd_live_bbbbbbbbbbbbbbbbbbbbbbbb',
        }),
      );

      // Connected, then every read fails.
      expect(
        (await invoke('connection:connect', { base_url: sandbox.url, api_key: sandbox.apiKey })).ok,
      ).toBe(true);
      await control('/_sandbox/faults', { error_rate: 1 });
      for (const [name, input] of [
        ['accounts:list', undefined],
        ['articles:list', {}],
        ['skills:list', undefined],
        ['analytics:overview', {}],
        ['automations:list', undefined],
      ] as const)
        noteResult(`${name} with the service failing`, await invoke(name, input));
      const page = (await invoke('posts:list', { refresh: true })) as BridgeResult<{
        freshness?: { error: BridgeError | null };
      }>;
      if (page.ok && page.value.freshness?.error)
        noteError('posts:list freshness', page.value.freshness.error);
      else noteResult('posts:list with the service failing', page);
      await control('/_sandbox/faults', {});

      // Refusals: a 404, a 409, a post the service will not take.
      const accounts = (await invoke('accounts:list')) as BridgeResult<{
        accounts: { id: string; platform: string }[];
      }>;
      const x = accounts.ok ? accounts.value.accounts.find((a) => a.platform === 'x') : undefined;
      noteResult(
        'posts:update of an unknown post',
        await invoke('posts:update', { id: crypto.randomUUID(), caption: 'x' }),
      );
      noteResult('skills:get of an unknown skill', await invoke('skills:get', { id: 'no-such-skill' }));
      noteResult(
        'analytics:post of an unknown post',
        await invoke('analytics:post', { post_id: crypto.randomUUID() }),
      );
      const out = (await invoke('posts:create', {
        caption: 'out now',
        targets: [{ social_account_id: x?.id, platform: 'x' }],
      })) as BridgeResult<{ social_posts: { id: string }[] }>;
      const posted = out.ok ? out.value.social_posts[0]?.id : undefined;
      noteResult('posts:delete of a published post', await invoke('posts:delete', { id: posted }));
      noteResult(
        'posts:create to an account of another platform',
        await invoke('posts:create', {
          caption: 'wrong target',
          targets: [{ social_account_id: x?.id, platform: 'tiktok' }],
        }),
      );
      noteResult(
        'posts:create in the past',
        await invoke('posts:create', {
          caption: 'late',
          targets: [{ social_account_id: x?.id, platform: 'x' }],
          scheduled_at: '2001-01-01T00:00:00Z',
        }),
      );
      noteResult('runs:get of an unknown run', await invoke('runs:get', { id: 'no-such-run' }));
      noteResult(
        'automations:runNow of an unknown automation',
        await invoke('automations:runNow', { id: 'nope' }),
      );
      noteResult('bulk:submit of a plan that is gone', await invoke('bulk:submit', { plan_id: 'gone' }));
      noteResult(
        'bulk:resubmitFailed of a batch not sent here',
        await invoke('bulk:resubmitFailed', { batch_id: crypto.randomUUID() }),
      );
      noteResult(
        'settings:update of a guarded setting nobody confirms',
        await invoke('settings:update', { agent_commands: [{ agent_type: 'x', command: 'y', args: [] }] }),
      );
      noteResult('files:pick where there is no dialog', await invoke('files:pick', { purpose: 'csv' }));
      noteResult('media:inspect of a file that is gone', await invoke('media:inspect', { id: 'gone' }));
      noteResult('media:convert of a file that is gone', await invoke('media:convert', { id: 'gone' }));
      note('the web terminal cannot confirm', NO_TERMINAL);
    },
    scaled(120_000),
  );

  it(
    'files the media pipeline refuses, and their conversion',
    async () => {
      const fx = mediaFixtures();
      const dir = join(tb.dir, 'media');
      await mkdir(dir, { recursive: true });
      const empty = join(dir, 'empty.jpg');
      await writeFile(empty, '');
      // Bytes no format knows, under an image's name and a video's.
      const noise = join(dir, 'noise.jpg');
      await writeFile(noise, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
      const noiseVideo = join(dir, 'noise.mov');
      await copyFile(noise, noiseVideo);
      const files = [
        fx.webm,
        fx.mov,
        fx.gif,
        fx.truncatedMp4,
        fx.pngNamedMp4,
        fx.oversizeJpeg,
        fx.oversizeMp4,
        empty,
        noise,
        noiseVideo,
      ];
      const added = (await invoke('media:add', { grants: await grant(tb, ...files) })) as BridgeResult<{
        files: { id: string; name: string }[];
        skipped: { name: string; reason: string }[];
      }>;
      expect(added.ok).toBe(true);
      if (!added.ok) return;
      for (const s of added.value.skipped) note(`media:add skipped ${s.name}`, s.reason);
      for (const f of added.value.files) {
        const r = (await invoke('media:inspect', { id: f.id })) as BridgeResult<{
          checks: { message: string }[];
        }>;
        noteResult(`media:inspect ${f.name}`, r);
        for (const c of r.ok ? r.value.checks : []) note(`media:inspect ${f.name}: check`, c.message);
        noteResult(`media:upload ${f.name}`, await invoke('media:upload', { id: f.id }));
      }
      const gif = added.value.files.find((f) => f.name.endsWith('.gif'));
      noteResult('media:convert of a GIF', await invoke('media:convert', { id: gif?.id }));
      // A file moved away after it was added.
      const moved = join(dir, 'moved.png');
      await copyFile(fx.png, moved);
      const again = (await invoke('media:add', { grants: await grant(tb, moved) })) as BridgeResult<{
        files: { id: string }[];
      }>;
      const { rm } = await import('node:fs/promises');
      await rm(moved);
      if (again.ok) {
        const r = (await invoke('media:inspect', { id: again.value.files[0]?.id })) as BridgeResult<{
          checks: { message: string }[];
        }>;
        noteResult('media:inspect of a removed file', r);
        for (const c of r.ok ? r.value.checks : []) note('media:inspect of a removed file: check', c.message);
      }
    },
    scaled(120_000),
  );

  it(
    'every problem a bulk import can find, in a file the page sent and in one chosen here',
    async () => {
      const other = crypto.randomUUID();
      const rows = [
        'caption,targets,scheduled_at,action,media,timezone',
        `"no target",,2031-01-01T09:00:00Z,,,`,
        `"bad platform",myspace:${other},2031-01-01T09:00:00Z,,,`,
        `"bad id",x:not-an-id,2031-01-01T09:00:00Z,,,`,
        `"bad time",x:${other},next tuesday,,,`,
        `"past",x:${other},2001-01-01T09:00:00Z,,,`,
        `"bad action",x:${other},2031-01-01T09:00:00Z,publish-now,,`,
        `"bad zone",x:${other},2031-01-01 09:00,,,Mars/Olympus`,
        `"local media",x:${other},2031-01-01T09:00:00Z,,clip.webm,`,
        `"${'long '.repeat(500)}",x:${other},2031-01-01T09:00:00Z,,,`,
        `,x:${other},2031-01-01T09:00:00Z,draft,,`,
      ].join('\n');
      const plans = [
        await invoke('bulk:plan', { source: { text: rows, name: 'page.csv' } }),
        await invoke('bulk:plan', {
          source: { text: 'caption,targets,schedule_at\n"x",x:1,2031\n', name: 'typo.csv' },
        }),
        await invoke('bulk:plan', { source: { text: 'caption,targets\n', name: 'empty.csv' } }),
        await invoke('bulk:plan', { source: { text: '{"posts": 3}', name: 'bad.json' } }),
        await invoke('bulk:plan', { source: { text: 'a,"b\nc', name: 'broken.csv' } }),
      ];
      // A file chosen on this computer may name media files: a WebM and a missing one.
      const dir = join(tb.dir, 'bulk');
      await mkdir(dir, { recursive: true });
      await copyFile(mediaFixtures().webm, join(dir, 'clip.webm'));
      const chosen = join(dir, 'chosen.csv');
      await writeFile(
        chosen,
        `caption,targets,scheduled_at,media\n"webm",x:${other},2031-01-01T09:00:00Z,clip.webm\n"missing",x:${other},2031-01-01T09:00:00Z,nowhere.mp4\n`,
      );
      plans.push(await invoke('bulk:plan', { source: { grant: (await grant(tb, chosen))[0] } }));
      const notes = join(dir, 'notes.txt');
      await writeFile(notes, 'hello');
      plans.push(await invoke('bulk:plan', { source: { grant: (await grant(tb, notes))[0] } }));
      plans.push(await invoke('bulk:plan', { source: { grant: (await grant(tb, dir))[0] } }));
      let issues = 0;
      for (const [i, r] of plans.entries()) {
        noteResult(`bulk:plan #${i}`, r);
        if (!r.ok) continue;
        const plan = r.value as {
          rows: { line: number; issues: { message: string }[] }[];
          file_issues?: { message: string }[];
        };
        for (const row of plan.rows) {
          for (const issue of row.issues) {
            issues += 1;
            note(`bulk:plan #${i} line ${row.line}`, issue.message);
          }
        }
        for (const issue of plan.file_issues ?? []) {
          issues += 1;
          note(`bulk:plan #${i} file`, issue.message);
        }
      }
      expect(issues).toBeGreaterThan(10);
    },
    scaled(120_000),
  );

  it('errors the core raises, as main turns them into bridge errors', () => {
    const errors: unknown[] = [
      ...(['connect', 'dns', 'timeout', 'reset', 'aborted', 'other'] as const).map(
        (kind) =>
          new NetworkError({
            kind,
            causeCode: 'ECONNREFUSED',
            causeMessage: 'connect ECONNREFUSED 127.0.0.1:9',
            maybeCommitted: false,
            operation: 'listAccounts',
            host: '127.0.0.1:9',
          }),
      ),
      ...ERROR_CODES.flatMap((code) =>
        [400, 403, 404, 409].map(
          (status) =>
            new ApiError({
              status,
              code,
              message: `the service says ${code.toLowerCase().replace(/_/g, ' ')}`,
              operation: 'createPost',
            }),
        ),
      ),
      ...[401, 429, 500, 502, 503].map(
        (status) => new ApiError({ status, message: 'it says no', operation: 'listPosts' }),
      ),
      new ApiError({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'invalid request',
        issues: { 'add_targets.0.social_account_id': ['Invalid UUID'], caption: 'Too long' },
        operation: 'updatePost',
      }),
      ValidationError.fromZod(
        CreatePostRequest.safeParse({ caption: 3, targets: [{}] }).error!,
        'createPost',
      ),
      new CredentialMissingError(
        'listAccounts',
        'an API key',
        'run `postdesk login`, or set POSTDESK_API_KEY_FILE',
      ),
      new KeychainUnavailableError('org.freedesktop.secrets was not provided', 'linux'),
      new BulkInterruptedError('imp-1', ['b1', 'b2'], 'bulkCreate failed: network error (reset ECONNRESET)'),
      new UploadError(
        'network',
        'clip.mp4',
        'clip.mp4: reserveMedia failed: network error (reset UND_ERR_SOCKET) talking to 127.0.0.1:9: other side closed',
      ),
      new UploadError(
        'service',
        'clip.mp4',
        'clip.mp4: completeMedia failed: 503 SANDBOX_FAULT: injected fault',
      ),
      new UploadError(
        'check',
        '/tmp/postdesk-web-1/clip.webm',
        '/tmp/postdesk-web-1/clip.webm: a WebM video is not accepted as it is; it can be converted to MP4; convert it with `postdesk media convert /tmp/postdesk-web-1/clip.webm`',
      ),
      new Error("ENOENT: no such file or directory, open '/tmp/postdesk-x/run.json'"),
    ];
    for (const [i, e] of errors.entries())
      noteError(`core error #${i} (${(e as Error).name})`, toBridgeError(e));
  });

  it('what the web page says when its host goes away', async () => {
    const { bridge, close } = createWsBridge({
      origin: 'http://127.0.0.1:9',
      token: 'a'.repeat(43),
      reconnectMs: 60_000,
      openSocket: () => {
        const handlers = new Map<string, ((e: { data?: unknown }) => void)[]>();
        const s = {
          readyState: 0,
          send: () => undefined,
          close: () => undefined,
          addEventListener: (t: string, l: (e: { data?: unknown }) => void) =>
            handlers.set(t, [...(handlers.get(t) ?? []), l]),
        };
        setTimeout(() => handlers.get('close')?.forEach((l) => l({})), 1);
        return s;
      },
      fetch: async () => ({ status: 403, json: async () => ({}) }),
    });
    noteResult('a call cut off by a closed socket', await bridge.accounts.list());
    await new Promise((r) => setTimeout(r, 20));
    noteResult('a call after the host refused the session', await bridge.accounts.list());
    close();
    noteResult('a call after the page closed its bridge', await bridge.accounts.list());
  });

  it('none of them reads like a developer wrote it for a developer', () => {
    expect(seen.length).toBeGreaterThan(800);
    expect(violations()).toEqual([]);
  });
});

// Names used only as types above: a channel the contract drops stops compiling here.
export type _Channels = InvokeChannelName;
