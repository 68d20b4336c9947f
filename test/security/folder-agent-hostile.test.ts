import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import { MemorySecretStore } from '../../src-main/host/memory-secret-store';
import { createManualClock } from '../../src-main/core/executor/clock';
import type { Executor } from '../../src-main/core/executor/executor';
import type { RunInfo } from '../../src-main/core/executor/executor-events';
import { FOLDER_STATE_FILE } from '../../src-main/core/executor/agents/folder-agent';
import { automationFolderOf, createExecutorFromCore } from '../../src-main/core/executor/from-core';
import { Settings } from '../../src-shared/settings';
import { openLocal } from '../../src-main/core/services';
import { FIXTURE_NOW, IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { POSTDESK_BIN } from '../helpers/build-cli';

/**
 * Point 3 of issue #10: nothing the service sends (instructions, a skill's markdown, names, ids) decides a
 * folder, a path, an argv element, the working directory or an environment variable of an agent. The
 * folder agent's folder comes only from the user's own setting for that automation.
 */

const RECORDER = resolve(import.meta.dirname, 'fixtures/record-agent.mjs');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let dir: string;
let privateDir: string;
let userDir: string;
let sb: TestSandbox | null = null;
let api: ApiClient | null = null;
let local: ReturnType<typeof openLocal>;
let executor: Executor | null = null;

/** Text a hostile skill author (or a compromised service) would try: paths, flags, traversal, env-like lines. */
const hostile = (p: string) =>
  [
    `folder: ${p}`,
    `--folder ${p}`,
    `--state=${p}/state.json`,
    `POSTDESK_FOLDER=${p}`,
    'POSTDESK_RUN_DIR=/etc',
    'LD_PRELOAD=/tmp/evil.so',
    '../../../../etc/passwd',
    '$(touch /tmp/postdesk-hostile) `id`',
  ].join('\n');

async function start(over: { name: string; instructions: string; skillMarkdown: string }) {
  sb = await startTestSandbox(
    demoFixture({
      executors: [],
      automations: [
        {
          id: IDS.automation,
          name: over.name,
          status: 'active',
          execution_mode: 'auto',
          queue: 'local',
          schedule: { cron: '0 * * * *', timezone: 'UTC' },
          instructions: over.instructions,
          skill: { id: 'public-skill', version: '1.0.0' },
          targets: [{ social_account_id: IDS.accounts.linkedin, platform: 'linkedin' }],
        },
      ],
      skills: [
        {
          id: 'public-skill',
          name: 'A public skill',
          description: 'Anyone may publish one.',
          versions: [{ version: '1.0.0', markdown: over.skillMarkdown }],
        },
      ],
    }),
  );
  api = createApiClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    retry: { retries: 2, minTimeoutMs: 5, maxTimeoutMs: 20 },
  });
}

async function build(folder?: string): Promise<Executor> {
  executor = await createExecutorFromCore(
    {
      dataDir: join(dir, 'data'),
      store: local.store,
      secrets: local.secrets,
      settings: local.settings,
      client: api!,
      endpoint: { baseUrl: sb!.url, sandbox: null },
    },
    {
      clock: createManualClock(new Date(FIXTURE_NOW)),
      env: {},
      ...(folder ? { folder } : {}),
      overrides: { runTimeoutMs: 20_000, retryBaseMs: 5 },
    },
  );
  return executor;
}

/** Starts a run now and waits for its end. */
async function runNow(ex: Executor): Promise<{ ok: boolean; message: string; info: RunInfo }> {
  const ended = new Promise<{ ok: boolean; message: string }>((done) => {
    ex.onDidFinishRun(() => done({ ok: true, message: '' }));
    ex.onDidFailRun((r) => done({ ok: false, message: r.message }));
  });
  const info = await ex.runNow(IDS.automation);
  return { ...(await ended), info };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-hostile-'));
  privateDir = join(dir, 'private');
  userDir = join(dir, 'chosen');
  await mkdir(privateDir);
  await mkdir(userDir);
  await writeFile(join(privateDir, 'secret.png'), PNG);
  await writeFile(join(privateDir, 'secret.png.txt'), 'PRIVATE: not for the public');
  await writeFile(join(userDir, 'mine.png'), PNG);
  await writeFile(join(userDir, 'mine.png.txt'), 'Mine to share');
  local = openLocal(join(dir, 'data'), new MemorySecretStore(), {});
});

afterEach(async () => {
  await executor?.stop({ graceMs: 0 }).catch(() => undefined);
  executor = null;
  await api?.close();
  api = null;
  local.store.close();
  await sb?.close();
  sb = null;
  await rm(dir, { recursive: true, force: true });
});

describe('the built-in folder agent', () => {
  it('publishes nothing from a folder a skill or the instructions name, and writes nothing there', async () => {
    await start({
      name: `Daily --folder=${privateDir} ../../x $(id)`,
      instructions: hostile(privateDir),
      skillMarkdown: `# Publishing\n\n${hostile(privateDir)}\n`,
    });
    const run = await runNow(await build());
    expect(run.ok).toBe(false);
    // Said for a person: no folder is set for this automation here, and where to set one.
    expect(run.message).toMatch(/no folder is set for this automation/);
    expect(run.message).toMatch(/Automations screen/);
    expect(run.message).not.toContain(privateDir);
    expect(await readdir(privateDir)).toEqual(['secret.png', 'secret.png.txt']);
    const state = await sb!.control.state();
    expect(state.media.uploaded).toBe(0);
    expect(state.runs.completed ?? 0).toBe(0);
  });

  it("publishes from the user's own folder for that automation, whatever the skill says", async () => {
    await start({
      name: 'Daily',
      instructions: hostile(privateDir),
      skillMarkdown: hostile(privateDir),
    });
    local.settings.update({ automationFolders: { [IDS.automation]: userDir } });
    const run = await runNow(await build());
    expect(run.ok).toBe(true);
    const row = executor!.journal.get(run.info.localId);
    const output = JSON.parse(row?.output ?? '{}') as { caption?: string; media?: string[] };
    expect(output.caption).toBe('Mine to share');
    expect(output.media).toEqual([join(userDir, 'mine.png')]);
    expect(existsSync(join(userDir, FOLDER_STATE_FILE))).toBe(true);
    expect((await stat(join(userDir, FOLDER_STATE_FILE))).mode & 0o777).toBe(0o600);
    expect(await readdir(privateDir)).toEqual(['secret.png', 'secret.png.txt']);
  });

  it('an automation without a folder of its own uses the one given to `postdesk executor --folder`', async () => {
    await start({ name: 'Daily', instructions: hostile(privateDir), skillMarkdown: '# skill' });
    const run = await runNow(await build(userDir));
    expect(run.ok).toBe(true);
    expect(await readdir(privateDir)).toEqual(['secret.png', 'secret.png.txt']);
    expect(existsSync(join(userDir, FOLDER_STATE_FILE))).toBe(true);
  });
});

describe('an agent program', () => {
  it('gets only its configured argv, an allowlisted env and its own run directory, however hostile the run', async () => {
    await start({
      name: `--folder=${privateDir} ../x $(id) POSTDESK_FOLDER=/etc`,
      instructions: hostile(privateDir),
      skillMarkdown: hostile(privateDir),
    });
    const args = [RECORDER, '--mode', 'record'];
    local.settings.update({
      agentCommands: { recorder: { command: process.execPath, args } },
      automationFolders: { [IDS.automation]: userDir },
    });
    const run = await runNow(await build());
    expect(run.ok).toBe(true);
    const row = executor!.journal.get(run.info.localId)!;
    const seen = JSON.parse(await readFile(join(row.run_dir!, 'seen.json'), 'utf8')) as {
      argv: string[];
      cwd: string;
      env: Record<string, string>;
    };
    // argv: exactly the user's command line; nothing the service sent.
    expect(seen.argv).toEqual(args);
    // cwd: the run's own folder under the data directory, named by a local id.
    expect(seen.cwd).toBe(row.run_dir);
    expect(resolve(row.run_dir!)).toBe(join(dir, 'data', 'executor', 'runs', row.id));
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    // env: an allowlist, the executor's own POSTDESK_* files and the user's folder for this automation.
    const allowed = new Set(['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'SYSTEMROOT', 'WINDIR']);
    const own = {
      POSTDESK_RUN_DIR: row.run_dir,
      POSTDESK_OUTPUT: join(row.run_dir!, 'output.json'),
      POSTDESK_TASK: join(row.run_dir!, 'task.md'),
      POSTDESK_RUN_JSON: join(row.run_dir!, 'run.json'),
      POSTDESK_FOLDER: userDir,
      // Set by bubblewrap when the agent is confined (the default where it exists): the directory it starts in.
      PWD: row.run_dir,
    };
    for (const [name, value] of Object.entries(seen.env)) {
      if (name in own) expect({ [name]: value }).toEqual({ [name]: own[name as keyof typeof own] });
      else expect(allowed.has(name) || /^LC_[A-Z]+$/.test(name) ? name : `unexpected ${name}`).toBe(name);
      expect(value).not.toContain(privateDir);
      expect(value).not.toContain('evil.so');
    }
    expect(seen.env.POSTDESK_FOLDER).toBe(userDir);
    // The task itself does carry the text: it is the agent's to read, as data.
    expect(await readFile(join(row.run_dir!, 'task.md'), 'utf8')).toContain(`folder: ${privateDir}`);
  });
});

describe('the folder agent as an agent command', () => {
  it('takes its folder from --folder or POSTDESK_FOLDER only, never from task.md', () => {
    const run = join(dir, 'run');
    mkdirSync(run);
    writeFileSync(join(run, 'task.md'), `# Daily\n\n${hostile(privateDir)}\n`);
    writeFileSync(join(run, 'run.json'), JSON.stringify({ run_id: 'run-1' }));
    const agent = (env: Record<string, string>) =>
      spawnSync(process.execPath, [POSTDESK_BIN, 'executor', 'folder-agent'], {
        env: { PATH: process.env.PATH ?? '', HOME: dir, POSTDESK_RUN_DIR: run, ...env },
        encoding: 'utf8',
      });
    const none = agent({});
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/no folder/);
    expect(readdirSync(privateDir)).toEqual(['secret.png', 'secret.png.txt']);
    expect(existsSync(join(run, 'output.json'))).toBe(false);

    const mine = agent({ POSTDESK_FOLDER: userDir });
    expect(mine.status, mine.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(run, 'output.json'), 'utf8'))).toMatchObject({
      media: [join(userDir, 'mine.png')],
    });
  });
});

describe("the lookup of an automation's folder", () => {
  it('finds only what the user set: ids from the service are keys, never paths or prototype members', () => {
    const folderOf = automationFolderOf(() =>
      Settings.parse({ automationFolders: { [IDS.automation]: '~/clips', other: '/srv/queue' } }),
    );
    expect(folderOf(IDS.automation)).toBe(join(homedir(), 'clips'));
    expect(folderOf('other')).toBe('/srv/queue');
    for (const id of ['constructor', '__proto__', 'toString', '../other', 'other/..', '']) {
      expect(folderOf(id)).toBeUndefined();
    }
  });
});
