import { posix, win32 } from 'node:path';

/**
 * The `postdesk` command the desktop app puts on the user's PATH on request (as code editors do with `code`): a
 * small launcher script that runs the CLI shipped inside the app (`bin/postdesk.js` in `app.asar.unpacked`) with
 * the user's own Node.js. The packaged Electron has its RunAsNode fuse off, so the app's binary cannot be that
 * Node: docs/cli.md says why, and what the user needs.
 *
 * This module decides what to write where, per platform, as plain data; install.ts does the writing.
 */

/** The line that marks a file as ours: only such a file is replaced or removed. */
export const LAUNCHER_MARK = 'postdesk-launcher: 1';

export type LauncherPlatform = 'linux' | 'darwin' | 'win32';

export interface LauncherPlace {
  readonly platform: LauncherPlatform;
  /** The folder the launcher goes in. */
  readonly dir: string;
  /** The launcher itself: `postdesk`, or `postdesk.cmd` on Windows. */
  readonly file: string;
  /** Windows: the folder must be added to the user's PATH (a registry value, not the file system). */
  readonly addToUserPath: boolean;
  /** Said to the user beside the result when the first choice of folder could not be used. */
  readonly note: string | null;
  /** POSIX file mode of the launcher. */
  readonly mode: number;
}

export type LauncherPlan =
  ({ readonly kind: 'place' } & LauncherPlace) | { readonly kind: 'unsupported'; readonly reason: string };

export interface PlanInput {
  readonly platform: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The CLI the launcher runs: `<resources>/app.asar.unpacked/bin/postdesk.js` in the packaged app. */
  readonly cliScript: string;
  /** Whether this process may create files in a folder (macOS's /usr/local/bin). */
  readonly canWrite: (dir: string) => boolean;
  /** macOS's shared folder of commands; a temp dir in tests. */
  readonly sharedBin?: string;
  /** Windows's path rules (the default there); tests on Linux give posix, to write in a temp dir. */
  readonly windowsPaths?: typeof win32 | typeof posix;
}

/** Characters a launcher cannot carry safely in a quoted path (sh, and cmd.exe's `set "…"`). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be refused
const UNSAFE_IN_PATH = /[\0-\x1f"%!]/;

/**
 * Where the launcher goes on this platform, or why it cannot be installed here:
 * - Linux: `~/.local/bin/postdesk` (the XDG folder for a user's own commands; on the PATH of most distributions).
 * - macOS: `/usr/local/bin/postdesk`, on every shell's PATH (`/etc/paths`), when this user may write there (as
 *   with Homebrew on Intel Macs); else `~/.local/bin/postdesk`, and the result says why and what to add to PATH.
 * - Windows: `%LOCALAPPDATA%\Postdesk\bin\postdesk.cmd`, that folder added to the user's PATH (no administrator).
 * Not from an AppImage: it is mounted at a new temporary path at each start, so a launcher pointing into it
 * would stop working once Postdesk quits.
 */
export function planLauncher(i: PlanInput): LauncherPlan {
  if (i.platform !== 'linux' && i.platform !== 'darwin' && i.platform !== 'win32')
    return { kind: 'unsupported', reason: `Postdesk cannot install its command on ${i.platform}.` };
  if (UNSAFE_IN_PATH.test(i.cliScript))
    return {
      kind: 'unsupported',
      reason: 'Postdesk is installed in a folder whose name a command launcher cannot hold safely.',
    };
  if (i.platform === 'linux' && i.env.APPIMAGE)
    return {
      kind: 'unsupported',
      reason:
        'This copy of Postdesk runs from an AppImage, which moves each time it starts, so a command installed from it would stop working. Install the command with npm instead (see the command-line guide).',
    };
  if (i.platform === 'win32') {
    const p = i.windowsPaths ?? win32;
    const local = i.env.LOCALAPPDATA || p.join(i.home, 'AppData', 'Local');
    const dir = p.join(local, 'Postdesk', 'bin');
    return {
      kind: 'place',
      platform: 'win32',
      dir,
      file: p.join(dir, 'postdesk.cmd'),
      addToUserPath: true,
      note: null,
      mode: 0o644,
    };
  }
  const userBin = posix.join(i.home, '.local', 'bin');
  const inHome = (note: string | null): LauncherPlan => ({
    kind: 'place',
    platform: i.platform as 'linux' | 'darwin',
    dir: userBin,
    file: posix.join(userBin, 'postdesk'),
    addToUserPath: false,
    note,
    // Private like everything Postdesk writes, and runnable by its owner.
    mode: 0o700,
  });
  if (i.platform === 'linux') return inHome(null);
  const shared = i.sharedBin ?? '/usr/local/bin';
  if (i.canWrite(shared))
    return {
      kind: 'place',
      platform: 'darwin',
      dir: shared,
      file: posix.join(shared, 'postdesk'),
      addToUserPath: false,
      note: null,
      // A shared folder whose commands are all 0755; the launcher holds a path, nothing private.
      mode: 0o755,
    };
  return inHome(
    `Postdesk may not write to ${shared} without administrator rights, so the command went to ${userBin}.`,
  );
}

const shQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** The POSIX launcher: a `sh` script (a symlink could not say what is wrong when the app or Node is missing). */
export function posixLauncher(cliScript: string): string {
  return [
    '#!/bin/sh',
    '# The postdesk command, written by the Postdesk app (Settings, Command line), which also removes it.',
    `# ${LAUNCHER_MARK}`,
    `cli=${shQuote(cliScript)}`,
    'if [ ! -f "$cli" ]; then',
    '  echo "postdesk: the Postdesk app this command belongs to is no longer at $cli; install the command again from Postdesk\'s Settings" >&2',
    '  exit 1',
    'fi',
    'if ! command -v node >/dev/null 2>&1; then',
    '  echo "postdesk: this command runs with Node.js 22.12 or later, and there is no node on your PATH; install Node.js and try again" >&2',
    '  exit 127',
    'fi',
    'exec node "$cli" "$@"',
    '',
  ].join('\n');
}

/**
 * The Windows launcher, a `.cmd` with CRLF line ends. The path is never echoed nor expanded inside a parenthesised
 * block, where a folder such as `Program Files (x86)` would end the block early.
 */
export function windowsLauncher(cliScript: string): string {
  return [
    '@echo off',
    'rem The postdesk command, written by the Postdesk app (Settings, Command line), which also removes it.',
    `rem ${LAUNCHER_MARK}`,
    'setlocal',
    `set "POSTDESK_CLI=${cliScript}"`,
    'if not exist "%POSTDESK_CLI%" goto moved',
    'where node >nul 2>nul || goto nonode',
    'node "%POSTDESK_CLI%" %*',
    'exit /b %errorlevel%',
    ':moved',
    "echo postdesk: the Postdesk app this command belongs to is no longer where it was; install the command again from Postdesk's Settings 1>&2",
    'exit /b 1',
    ':nonode',
    'echo postdesk: this command runs with Node.js 22.12 or later, and there is no node on your PATH; install Node.js and try again 1>&2',
    'exit /b 9009',
    '',
  ].join('\r\n');
}

export const launcherText = (platform: LauncherPlatform, cliScript: string): string =>
  platform === 'win32' ? windowsLauncher(cliScript) : posixLauncher(cliScript);

/** The CLI script a launcher of ours runs, read back from its text; null for a file that is not ours. */
export function launcherTarget(text: string): string | null {
  if (!text.includes(LAUNCHER_MARK)) return null;
  const sh = /^cli='((?:[^']|'\\'')*)'$/m.exec(text);
  if (sh) return (sh[1] as string).replaceAll(`'\\''`, "'");
  const cmd = /^set "POSTDESK_CLI=([^"\r\n]*)"\r?$/m.exec(text);
  return cmd ? (cmd[1] as string) : null;
}

const sameWindowsDir = (a: string, b: string): boolean =>
  win32.normalize(a).replace(/\\+$/, '').toLowerCase() ===
  win32.normalize(b).replace(/\\+$/, '').toLowerCase();

/** A Windows PATH value with `dir` added at the end, unchanged when it is there already (in any case). */
export function withPathEntry(value: string, dir: string): string {
  const parts = value.split(';').filter((p) => p.trim() !== '');
  if (parts.some((p) => sameWindowsDir(p.trim(), dir))) return value;
  return [...parts, dir].join(';');
}

/** A Windows PATH value without `dir` (in any case, with or without a trailing backslash); the rest as it was. */
export function withoutPathEntry(value: string, dir: string): string {
  const parts = value.split(';');
  const kept = parts.filter((p) => p.trim() === '' || !sameWindowsDir(p.trim(), dir));
  return kept.length === parts.length ? value : kept.filter((p) => p.trim() !== '').join(';');
}

/**
 * Whether a folder is on the PATH a new terminal gets: this process's PATH, and on macOS also `/etc/paths` (an
 * app started from the Dock gets launchd's short PATH, while every shell reads `/etc/paths`).
 */
export function isOnPath(
  dir: string,
  pathValue: string | undefined,
  platform: string,
  extra: readonly string[] = [],
): boolean {
  if (platform === 'win32') return (pathValue ?? '').split(';').some((p) => p && sameWindowsDir(p, dir));
  const entries = [...(pathValue ?? '').split(posix.delimiter), ...extra];
  const norm = (p: string) => posix.normalize(p).replace(/\/+$/, '');
  return entries.some((p) => p !== '' && norm(p) === norm(dir));
}
