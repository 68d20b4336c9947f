import { execFile } from 'node:child_process';
import { posix, win32 } from 'node:path';
import { promisify } from 'node:util';
import { errorText } from '../common/error-text';
import {
  isOnPath,
  launcherTarget,
  launcherText,
  planLauncher,
  withPathEntry,
  withoutPathEntry,
  type LauncherPlace,
  type PlanInput,
} from './launcher';
import type { CommandLineState } from '../../../src-shared/ipc/command-line';
import {
  ensureDir,
  isWritableDirSync,
  pathExistsSync,
  readDirSync,
  readTextFile,
  readTextFileSync,
  removeEmptyDir,
  removePath,
  writePrivateFile,
} from '../files';

/** The user's own PATH on Windows (HKCU\Environment), which new terminals read; see windows-path.ts. */
export interface UserPathPort {
  get(): Promise<string>;
  set(value: string): Promise<void>;
}

export interface LauncherHost extends Omit<PlanInput, 'canWrite'> {
  readonly canWrite?: (dir: string) => boolean;
  /** Windows only: where the launcher's folder is added to the PATH. */
  readonly userPath?: UserPathPort;
  /** The version of the `node` a new terminal would run (`v24.1.0`), null when there is none. */
  readonly nodeVersion?: () => Promise<string | null>;
}

/** What Settings shows: where the command is (or would go), and anything the user must know or do. */
/** What the Settings card and `commandLine:*` show: the bridge contract's shape, declared there once. */
export type LauncherState = Readonly<CommandLineState>;

/** A `postdesk` that Postdesk did not write is where the launcher would go: it is never replaced or removed. */
export class LauncherConflictError extends Error {
  constructor(readonly file: string) {
    super(
      `There is already a postdesk command at ${file} that Postdesk did not install (perhaps from npm). Remove it first, or keep using it.`,
    );
    this.name = 'LauncherConflictError';
  }
}

const MIN_NODE: readonly [number, number] = [22, 12];

function defaultCanWrite(dir: string): boolean {
  return isWritableDirSync(dir);
}

/** macOS: the folders every shell adds to PATH (/etc/paths and /etc/paths.d), which a Dock-started app lacks. */
function etcPaths(platform: string): string[] {
  if (platform !== 'darwin') return [];
  const lines = (f: string) => {
    try {
      return readTextFileSync(f)
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    } catch {
      return [];
    }
  };
  let extra: string[] = [];
  try {
    extra = readDirSync('/etc/paths.d').flatMap((f) => lines(posix.join('/etc/paths.d', f)));
  } catch {
    // No /etc/paths.d: only /etc/paths.
  }
  return [...lines('/etc/paths'), ...extra];
}

/**
 * The PATH a new terminal gets, as far as an app can tell: its own, and on macOS the folders of /etc/paths and
 * Homebrew's (an app started from the Dock gets launchd's short PATH). A Node that only a shell profile adds
 * (nvm and the like) is not seen: the notes then say none was found, which the user can ignore.
 */
export function terminalPath(env: Readonly<Record<string, string | undefined>>, platform: string): string {
  if (platform !== 'darwin') return env.PATH ?? '';
  return [env.PATH ?? '', ...etcPaths(platform), '/opt/homebrew/bin'].filter(Boolean).join(':');
}

/** The first `node` on a PATH value and its version, asked of it (a program of the user's own PATH). */
export function nodeOnPath(pathValue: string | undefined, platform: string): () => Promise<string | null> {
  return async () => {
    const sep = platform === 'win32' ? ';' : ':';
    const names = platform === 'win32' ? ['node.exe'] : ['node'];
    const join = platform === 'win32' ? win32.join : posix.join;
    for (const dir of (pathValue ?? '').split(sep).filter(Boolean)) {
      for (const name of names) {
        const file = join(dir, name);
        if (!pathExistsSync(file)) continue;
        try {
          const { stdout } = await promisify(execFile)(file, ['--version'], { timeout: 5_000 });
          return stdout.trim();
        } catch {
          return null;
        }
      }
    }
    return null;
  };
}

function nodeNote(version: string | null): string | null {
  const [major = 0, minor = 0] = (version ?? '').replace(/^v/, '').split('.').map(Number);
  if (version && (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]))) return null;
  return version
    ? `The command runs with Node.js 22.12 or later; the Node.js on your PATH is ${version}. Install a newer Node.js.`
    : 'The command runs with Node.js 22.12 or later, and Postdesk found none on your PATH. Install Node.js to use it.';
}

const planOf = (host: LauncherHost) => planLauncher({ ...host, canWrite: host.canWrite ?? defaultCanWrite });

/** Every place a launcher of ours may be: on macOS it is in /usr/local/bin or in ~/.local/bin. */
function candidates(host: LauncherHost): string[] {
  if (host.platform === 'darwin') {
    const shared = host.sharedBin ?? '/usr/local/bin';
    return [posix.join(shared, 'postdesk'), posix.join(host.home, '.local', 'bin', 'postdesk')];
  }
  const plan = planOf(host);
  return plan.kind === 'place' ? [plan.file] : [];
}

/** Ours: a file with our mark. Missing or someone else's: null. */
async function ours(file: string): Promise<{ target: string | null } | null> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch {
    return null;
  }
  const target = launcherTarget(text);
  return target === null ? null : { target };
}

async function pathNotes(
  host: LauncherHost,
  place: Pick<LauncherPlace, 'dir' | 'platform'>,
): Promise<string[]> {
  if (place.platform === 'win32') {
    const value = host.userPath ? await host.userPath.get() : '';
    return isOnPath(place.dir, value, 'win32')
      ? ['Open a new terminal window to use it: windows opened before do not see the change.']
      : [`Add ${place.dir} to your PATH to use it.`];
  }
  return isOnPath(place.dir, host.env.PATH, host.platform, etcPaths(host.platform))
    ? []
    : [`${place.dir} is not on your PATH yet: add it in your shell's settings, then open a new terminal.`];
}

/** Where the command is, or would go, and what the user should know. */
export async function launcherStatus(host: LauncherHost): Promise<LauncherState> {
  const plan = planOf(host);
  if (plan.kind === 'unsupported')
    return { supported: false, installed: false, location: null, notes: [plan.reason] };
  for (const file of candidates(host)) {
    const mine = await ours(file);
    if (!mine) continue;
    const notes: string[] = [];
    if (mine.target !== host.cliScript)
      notes.push(
        'It runs a copy of Postdesk that is no longer here: install it again to point it at this one.',
      );
    const dir = plan.platform === 'win32' ? (host.windowsPaths ?? win32).dirname(file) : posix.dirname(file);
    notes.push(...(await pathNotes(host, { dir, platform: plan.platform })));
    const node = nodeNote(await (host.nodeVersion ?? nodeOnPath(host.env.PATH, host.platform))());
    return { supported: true, installed: true, location: file, notes: node ? [...notes, node] : notes };
  }
  return { supported: true, installed: false, location: plan.file, notes: plan.note ? [plan.note] : [] };
}

/** Writes a file in one step: a new file beside it, renamed over it (a link at the name is replaced). */
function replaceFile(file: string, text: string, mode: number): Promise<void> {
  return writePrivateFile(file, text, { mode });
}

/**
 * Installs the launcher (or points an older one of ours at this copy of Postdesk). Refuses to replace a
 * `postdesk` it did not write. On Windows, adds its folder to the user's PATH.
 */
export async function installLauncher(host: LauncherHost): Promise<LauncherState> {
  const plan = planOf(host);
  if (plan.kind === 'unsupported') return launcherStatus(host);
  if (pathExistsSync(plan.file) && !(await ours(plan.file))) throw new LauncherConflictError(plan.file);
  await ensureDir(plan.dir);
  await replaceFile(plan.file, launcherText(plan.platform, host.cliScript), plan.mode);
  // macOS: a launcher left in the other folder by an earlier install would shadow or duplicate this one.
  for (const other of candidates(host)) {
    if (other !== plan.file && (await ours(other))) await removePath(other);
  }
  if (plan.addToUserPath) {
    if (!host.userPath) throw new Error('no way to change the user PATH was given');
    const before = await host.userPath.get();
    const after = withPathEntry(before, plan.dir);
    if (after !== before) await host.userPath.set(after);
  }
  const state = await launcherStatus(host);
  return plan.note ? { ...state, notes: [plan.note, ...state.notes] } : state;
}

/** Removes the launcher (only a file of ours) and, on Windows, its folder from the user's PATH. */
export async function uninstallLauncher(host: LauncherHost): Promise<LauncherState> {
  const plan = planOf(host);
  if (plan.kind === 'unsupported') return launcherStatus(host);
  for (const file of candidates(host)) {
    if (await ours(file)) await removePath(file);
  }
  if (plan.platform === 'win32') {
    // The folder is Postdesk's own: removed when empty, with its PATH entry.
    await removeEmptyDir(plan.dir);
    if (host.userPath) {
      const before = await host.userPath.get();
      const after = withoutPathEntry(before, plan.dir);
      if (after !== before) await host.userPath.set(after);
    }
  }
  return launcherStatus(host);
}

/** A failure of install or uninstall, said for a person (the conflict says itself). */
export function launcherFailureText(err: unknown): string {
  if (err instanceof LauncherConflictError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return FILE_FAILURE[code] ?? FILE_FAILURE_ELSE;
  return `The command could not be changed: ${errorText(err)}`;
}

// A system error's own text starts with its code and names paths; the card says what happened in words.
const FILE_FAILURE: Readonly<Record<string, string>> = {
  EACCES: 'Postdesk is not allowed to write there. Check the folder’s permissions and try again.',
  EPERM: 'Postdesk is not allowed to write there. Check the folder’s permissions and try again.',
  ENOSPC: 'The command could not be changed: the disk is full. Free some space and try again.',
  EROFS: 'The command could not be changed: its folder is on a read-only disk.',
  EBUSY:
    'The command could not be changed: its file is in use. Close the terminals that run it and try again.',
};
const FILE_FAILURE_ELSE =
  'The command could not be changed: the computer refused to write its file. Try again.';
