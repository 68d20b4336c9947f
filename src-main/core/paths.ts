import { homedir } from 'node:os';
import { join } from 'node:path';

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
