import { basename, extname, join, resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { z } from 'zod';
import { LIMITS, UPLOAD_CONTENT_TYPES, type UploadContentType } from '../../../../src-shared/api';
import { errorText } from '../../common/error-text';
import {
  FileRefused,
  lockFileSystem,
  readDir,
  readNoFollow,
  realPathWithin,
  writePrivateFile,
} from '../../files';

/** The media the folder agent publishes, by file name ending: the service's upload types. */
const TYPE_OF_EXTENSION: Readonly<Record<string, UploadContentType>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
};
export const FOLDER_STATE_FILE = '.postdesk-folder-agent.json';
/** A caption sidecar or the state file bigger than this is no caption and no state of ours. */
const TEXT_MAX_BYTES = 1024 * 1024;

const State = z.object({
  /**
   * Files taken by a run. `pending`: picked by a run not yet completed, so no other run takes it; the
   * executor marks it `published` when the run completes, or drops it when the run fails. No state: an
   * entry written before pending existed, published.
   */
  published: z.array(
    z.object({
      file: z.string(),
      run_id: z.string().nullable(),
      at: z.string(),
      state: z.enum(['pending', 'published']).optional(),
    }),
  ),
});
type State = z.infer<typeof State>;

export interface FolderAgentOptions {
  /** The user's own choice (settings, `--folder`): never read from a task, which the service writes. */
  readonly folder: string;
  readonly outputFile: string;
  /** Written next to the media by default, so moving the folder keeps its history. */
  readonly stateFile?: string;
  readonly runId?: string | null;
  /** The media every target of the automation accepts (acceptedUploadTypes); all upload types by default. */
  readonly accept?: readonly UploadContentType[];
  /** Receives `::step` lines (stdout when run as a command). */
  readonly say?: (line: string) => void;
  readonly lock?: FolderLockTiming;
}

export type FolderAgentResult =
  | { readonly ok: true; readonly file: string; readonly remaining: number }
  | { readonly ok: false; readonly message: string };

/** The folder's lock could not be had, or was lost: the run chooses no file. */
class FolderLockError extends Error {}

/** How long a lock may go unrefreshed before it counts as abandoned, and how long a run waits for one. */
export interface FolderLockTiming {
  readonly staleMs: number;
  readonly waitMs: number;
}

const LOCK_TIMING: FolderLockTiming = { staleMs: 10_000, waitMs: 60_000 };

/**
 * A pick whose run never said how it ended (its executor was killed and the run abandoned) frees the file
 * after this long: longer than any run may last.
 */
export const PENDING_PICK_STALE_MS = 24 * 3_600_000;

/**
 * Runs `fn` holding the lock of a folder's state file, so two runs never take the same file. The holder
 * refreshes the lock while it lives (proper-lockfile), so a live holder's lock is never broken however long
 * it holds it; one left by a process that died goes stale after `staleMs` and is taken over.
 */
export async function withStateLock<T>(
  stateFile: string,
  fn: () => Promise<T>,
  timing: FolderLockTiming = LOCK_TIMING,
): Promise<T> {
  let lost: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lock(stateFile, {
      lockfilePath: `${stateFile}.lock`,
      // The state file may not exist yet: lock its path as written.
      realpath: false,
      stale: timing.staleMs,
      retries: {
        retries: Math.ceil(timing.waitMs / 250) + 5,
        minTimeout: 25,
        maxTimeout: 250,
        factor: 1.5,
        randomize: true,
        maxRetryTime: timing.waitMs,
      },
      fs: lockFileSystem,
      onCompromised: (err) => {
        lost = err;
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED' || /RetryOperation timeout/.test(errorText(err)))
      throw new FolderLockError(
        `another run has been using the folder for over ${Math.round(timing.waitMs / 1000)} s (${stateFile} is locked); the next occurrence tries again`,
      );
    throw err;
  }
  try {
    const result = await fn();
    if (lost)
      throw new FolderLockError(`the lock on ${stateFile} was lost while choosing a file: ${lost.message}`);
    return result;
  } finally {
    // Already released when the lock was lost: nothing left to undo.
    if (!lost) await release();
  }
}

async function readState(file: string): Promise<State> {
  try {
    const text = (await readNoFollow(file, { maxBytes: TEXT_MAX_BYTES, allowHardLinks: true })).toString(
      'utf8',
    );
    return State.parse(JSON.parse(text));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { published: [] };
    throw new Error(`the folder agent's state file ${file} is unreadable: ${errorText(err)}`);
  }
}

function writeState(file: string, state: State): Promise<void> {
  return writePrivateFile(file, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * How the run that carried a picked file ended: `published` marks the file used for good; `failed`
 * gives it back, so the next occurrence publishes it. False when the folder has no pending pick of it.
 */
export async function settleFolderPick(o: {
  readonly folder: string;
  readonly file: string;
  readonly outcome: 'published' | 'failed';
  readonly stateFile?: string;
}): Promise<boolean> {
  const stateFile = o.stateFile ?? join(resolve(o.folder), FOLDER_STATE_FILE);
  return withStateLock(stateFile, async () => {
    const state = await readState(stateFile);
    const i = state.published.findIndex((e) => e.file === o.file && e.state === 'pending');
    if (i < 0) return false;
    if (o.outcome === 'published') {
      const entry = state.published[i] as State['published'][number];
      state.published[i] = { ...entry, state: 'published' };
    } else state.published.splice(i, 1);
    await writeState(stateFile, state);
    return true;
  });
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
    entries = (await readDir(folder)).sort();
  } catch (err) {
    const message = `cannot read the folder ${folder}: ${errorText(err)}`;
    say(`::step folder.pick failed ${message}`);
    return { ok: false, message };
  }
  const accept = new Set<UploadContentType>(o.accept ?? UPLOAD_CONTENT_TYPES);
  // Only what every target takes: a PNG picked for a TikTok automation would fail the run after the pick.
  const media = entries.filter((n) => {
    const type = TYPE_OF_EXTENSION[extname(n).toLowerCase()];
    return !n.startsWith('.') && type !== undefined && accept.has(type);
  });
  try {
    return await withStateLock(
      stateFile,
      () =>
        pickNext({
          folder,
          stateFile,
          entries,
          media,
          runId: o.runId ?? null,
          outputFile: o.outputFile,
          say,
        }),
      o.lock,
    );
  } catch (err) {
    if (!(err instanceof FolderLockError)) throw err;
    say(`::step folder.pick failed ${err.message}`);
    return { ok: false, message: err.message };
  }
}

/**
 * A caption sidecar, read only by its real path inside the folder and not through a hard link: a link out of
 * the folder (planted by whoever else writes there) would make a private file's text a public caption. Such a
 * sidecar gives no caption, and the run says so by the sidecar's name.
 */
async function readSidecar(folder: string, name: string, say: (line: string) => void): Promise<string> {
  const real = await realPathWithin(folder, join(folder, name));
  try {
    if (real === null) throw new FileRefused('outside', `${name} leads out of the folder`);
    return (await readNoFollow(real, { maxBytes: TEXT_MAX_BYTES })).toString('utf8');
  } catch (err) {
    say(`::step folder.caption info ${name} is not read: ${errorText(err)}`);
    return '';
  }
}

/** Under the lock: the first media file not yet published, written to output.json and remembered. */
async function pickNext(p: {
  readonly folder: string;
  readonly stateFile: string;
  readonly entries: readonly string[];
  readonly media: readonly string[];
  readonly runId: string | null;
  readonly outputFile: string;
  readonly say: (line: string) => void;
}): Promise<FolderAgentResult> {
  const { folder, stateFile, entries, media, say } = p;
  const state = await readState(stateFile);
  const now = Date.now();
  const held = (e: State['published'][number]): boolean =>
    e.state !== 'pending' || now - Date.parse(e.at) < PENDING_PICK_STALE_MS;
  state.published = state.published.filter(held);
  const done = new Set(state.published.map((entry) => entry.file));
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
      sidecar = parseSidecar(await readSidecar(folder, candidate, say));
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
  await writePrivateFile(p.outputFile, `${JSON.stringify(output, null, 2)}\n`);
  state.published.push({ file: next, run_id: p.runId, at: new Date().toISOString(), state: 'pending' });
  await writeState(stateFile, state);
  say(`::step folder.pick completed ${next} (${left.length - 1} left)`);
  return { ok: true, file: next, remaining: left.length - 1 };
}
