import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { LIMITS } from '../../../../src-shared/api';

export const FOLDER_MEDIA_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp', '.mp4'] as const;
export const FOLDER_STATE_FILE = '.postdesk-folder-agent.json';

const State = z.object({
  published: z.array(z.object({ file: z.string(), run_id: z.string().nullable(), at: z.string() })),
});
type State = z.infer<typeof State>;

export interface FolderAgentOptions {
  /** The user's own choice (settings, `--folder`): never read from a task, which the service writes. */
  readonly folder: string;
  readonly outputFile: string;
  /** Written next to the media by default, so moving the folder keeps its history. */
  readonly stateFile?: string;
  readonly runId?: string | null;
  /** Receives `::step` lines (stdout when run as a command). */
  readonly say?: (line: string) => void;
}

export type FolderAgentResult =
  | { readonly ok: true; readonly file: string; readonly remaining: number }
  | { readonly ok: false; readonly message: string };

async function withLock<T>(stateFile: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${stateFile}.lock`;
  for (let i = 0; ; i += 1) {
    try {
      await mkdir(lock, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than a minute belongs to an agent that died holding it.
      const age =
        Date.now() -
        (await stat(lock).then(
          (s) => s.mtimeMs,
          () => Date.now(),
        ));
      if (age > 60_000 || i > 200) await rm(lock, { recursive: true, force: true });
      else await delay(25);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function readState(file: string): Promise<State> {
  try {
    return State.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { published: [] };
    throw new Error(`the folder agent's state file ${file} is unreadable: ${(err as Error).message}`);
  }
}

/** Splits a caption sidecar: an optional first line `title: …`, then the caption. */
export function parseSidecar(text: string): { title?: string; caption: string } {
  const normalized = text.replace(/\r\n/g, '\n');
  const m = /^title:\s*(.*)\n?/i.exec(normalized);
  if (!m) return { caption: normalized.trim() };
  return { title: (m[1] ?? '').trim() || undefined, caption: normalized.slice(m[0].length).trim() };
}

/**
 * Publishes the next not yet published media file of a folder (by name order): writes `output.json`
 * with the file, its caption from `<name>.txt` when present, and remembers the file in the state file.
 */
export async function runFolderAgent(o: FolderAgentOptions): Promise<FolderAgentResult> {
  const say = o.say ?? (() => undefined);
  const folder = resolve(o.folder);
  const stateFile = o.stateFile ?? join(folder, FOLDER_STATE_FILE);
  say(`::step folder.pick started looking for the next file in ${folder}`);
  let entries: string[];
  try {
    entries = (await readdir(folder)).sort();
  } catch (err) {
    const message = `cannot read the folder ${folder}: ${(err as Error).message}`;
    say(`::step folder.pick failed ${message}`);
    return { ok: false, message };
  }
  const media = entries.filter(
    (n) =>
      !n.startsWith('.') && (FOLDER_MEDIA_EXTENSIONS as readonly string[]).includes(extname(n).toLowerCase()),
  );
  return withLock(stateFile, async () => {
    const state = await readState(stateFile);
    const done = new Set(state.published.map((p) => p.file));
    const left = media.filter((n) => !done.has(n));
    const next = left[0];
    if (next === undefined) {
      const message = `no unpublished media left in ${folder} (${media.length} published; add files or clear ${FOLDER_STATE_FILE})`;
      say(`::step folder.pick failed ${message}`);
      return { ok: false, message };
    }
    const stem = basename(next, extname(next));
    let sidecar: { title?: string; caption: string } = { caption: '' };
    for (const candidate of [`${stem}.txt`, `${next}.txt`]) {
      if (entries.includes(candidate)) {
        sidecar = parseSidecar(await readFile(join(folder, candidate), 'utf8'));
        break;
      }
    }
    const title = (sidecar.title ?? stem).slice(0, LIMITS.directUploadTitle.max);
    const output = {
      caption: sidecar.caption,
      title: title.length > 0 ? title : undefined,
      media: [join(folder, next)],
      metadata: { agent: 'folder', file: next },
    };
    await writeFile(o.outputFile, `${JSON.stringify(output, null, 2)}\n`, { mode: 0o600 });
    state.published.push({ file: next, run_id: o.runId ?? null, at: new Date().toISOString() });
    const tmp = `${stateFile}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, stateFile);
    say(`::step folder.pick completed ${next} (${left.length - 1} left)`);
    return { ok: true, file: next, remaining: left.length - 1 };
  });
}
