import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDirSync, pathExistsSync, tightenFileSync } from './files';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where Postdesk keeps its database and sandbox data. `POSTDESK_DATA_DIR` overrides (tests, portable installs);
 * the Electron app passes its userData path instead of calling this.
 */
export function dataDir(
  env: Env = process.env,
  platform: string = process.platform,
  home = homedir(),
): string {
  if (env.POSTDESK_DATA_DIR) return env.POSTDESK_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Postdesk');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Postdesk');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'postdesk');
}

/** The SQLite file inside a data directory. */
export const storeFile = (dir: string): string => join(dir, 'postdesk.db');
/** Where `--sandbox` keeps the sandbox's database and objects. */
export const sandboxDataDir = (dir: string): string => join(dir, 'sandbox');
/** Which sandbox (URL, pid) is running for this data directory, so other processes reuse it. */
export const sandboxRegistryFile = (dir: string): string => join(dir, 'sandbox.json');
/** The executor's folder (its run directories are `runs/<local id>` in it). */
export const executorDataDir = (dir: string): string => join(dir, 'executor');
/** Where the desktop app keeps its rotating log (`postdesk.log`, then `.1`, `.2`…). */
export const logDir = (dir: string): string => join(dir, 'logs');
export const appLogFile = (dir: string): string => join(logDir(dir), 'postdesk.log');

/**
 * The desktop app's data directory (Electron's userData for the packaged app): the same as `dataDir` on macOS and
 * Windows; on Linux Electron keeps it under the XDG config folder. `POSTDESK_DATA_DIR` overrides both.
 */
export function desktopDataDir(
  env: Env = process.env,
  platform: string = process.platform,
  home = homedir(),
): string {
  if (env.POSTDESK_DATA_DIR || platform !== 'linux') return dataDir(env, platform, home);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Postdesk');
}

/**
 * Makes a data directory private (0700) and tightens what an older version may have left readable:
 * the store and its WAL and SHM, the sandbox registry, the executor's folders. Everything else below
 * is out of other users' reach once the directory itself is 0700.
 */
export function securePrivateDataDir(dir: string): void {
  ensurePrivateDirSync(dir);
  const db = storeFile(dir);
  for (const file of [db, `${db}-wal`, `${db}-shm`, sandboxRegistryFile(dir)]) tightenFileSync(file);
  for (const sub of [executorDataDir(dir), join(executorDataDir(dir), 'runs'), logDir(dir)]) {
    if (pathExistsSync(sub)) ensurePrivateDirSync(sub);
  }
}
