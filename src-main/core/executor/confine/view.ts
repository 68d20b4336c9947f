import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { AgentConfinementMode } from '../../../../src-shared/settings';
import { isExecutableFileSync, isWithin, realPathSync, statPathSync } from '../../files';

/** What a confined agent may reach: from the user's settings and this run, never from the service. */
export interface ConfinementPolicy {
  readonly mode: AgentConfinementMode;
  /** Open by default: agents call model APIs. */
  readonly network: boolean;
  /** More read-only paths from the settings (`agentReadPaths`). */
  readonly readPaths: readonly string[];
  /** Directories no agent may see, even inside a read path: Postdesk's data directory. */
  readonly hide: readonly string[];
  /** Whether the agent may write to the automation's folder (`agentWritableFolders`). */
  readonly folderWritable: boolean;
}

/** The facts of this machine a view depends on; read from the executor's environment. */
export interface HostFacts {
  readonly home: string;
  readonly runtimeDir: string | null;
  /** The session bus socket, when its address is a path (`unix:path=…`). */
  readonly busSocket: string | null;
  /** `POSTDESK_API_KEY_FILE`: the key never reaches an agent, so neither does its file. */
  readonly apiKeyFile: string | null;
}

/** The file view of one confined run. Every path is absolute and resolved (symlinks followed). */
export interface ConfinementView {
  readonly home: string;
  readonly runDir: string;
  /** The agent's HOME and TMPDIR: inside the run directory. */
  readonly agentHome: string;
  readonly agentTmp: string;
  readonly folders: readonly { readonly path: string; readonly writable: boolean }[];
  /** Read-only: the agent program's own directories, and the settings' read paths. */
  readonly readPaths: readonly string[];
  /** Never visible: data directories, keyrings, the runtime directory and bus socket, the key file. */
  readonly hide: readonly string[];
  readonly network: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

export function hostFacts(env: Env = process.env): HostFacts {
  const bus = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? '');
  return {
    home: env.HOME || homedir(),
    runtimeDir: env.XDG_RUNTIME_DIR || null,
    busSocket: bus?.[1] ? decodeURIComponent(bus[1]) : null,
    apiKeyFile: env.POSTDESK_API_KEY_FILE || null,
  };
}

/** The real path of what exists; a missing path is resolved lexically so rules still name it. */
export function real(p: string): string {
  try {
    return realPathSync(p);
  } catch {
    return resolve(p);
  }
}

function isFile(p: string): boolean {
  try {
    return statPathSync(p)?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** Where a command runs from: as given when it names a path, else the first executable on the search path. */
export function resolveCommand(command: string, searchPath: string): string | null {
  if (command.includes('/') || command.includes('\\')) return isAbsolute(command) ? command : null;
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isExecutableFileSync(candidate)) return candidate;
  }
  return null;
}

/**
 * What the agent program needs to read to start at all: the directory of its executable, and of every
 * absolute path among its arguments (a script, a config), as the user configured them. A directory that
 * holds the home directory is never opened this way; the file alone is.
 */
export function programPaths(
  command: { readonly command: string; readonly args: readonly string[] },
  home: string,
  searchPath: string,
): string[] {
  const out = new Set<string>();
  const add = (given: string) => {
    for (const p of new Set([resolve(given), real(given)])) {
      const dir = dirname(p);
      out.add(dir === sep || isWithin(dir, home) ? p : dir);
    }
  };
  const exe = resolveCommand(command.command, searchPath);
  if (exe) add(exe);
  for (const a of command.args) {
    if (isAbsolute(a) && isFile(a)) add(a);
  }
  return [...out];
}

/** The view of one run, from the policy, the host and the agent's command. */
export function confinementView(o: {
  readonly runDir: string;
  readonly folder?: string | undefined;
  readonly policy: ConfinementPolicy;
  readonly host: HostFacts;
  readonly command: { readonly command: string; readonly args: readonly string[] };
  readonly searchPath: string;
}): ConfinementView {
  const home = real(o.host.home);
  const runDir = real(o.runDir);
  const hide = [
    ...o.policy.hide,
    join(home, '.local', 'share', 'keyrings'),
    ...(o.host.runtimeDir ? [o.host.runtimeDir] : []),
    ...(o.host.busSocket ? [o.host.busSocket] : []),
    ...(o.host.apiKeyFile ? [o.host.apiKeyFile] : []),
  ].map(real);
  return {
    home,
    runDir,
    agentHome: join(runDir, 'home'),
    agentTmp: join(runDir, 'tmp'),
    folders: o.folder ? [{ path: real(o.folder), writable: o.policy.folderWritable }] : [],
    readPaths: [
      ...programPaths(o.command, home, o.searchPath),
      ...o.policy.readPaths.map((p) => real(p.startsWith('~/') ? join(home, p.slice(2)) : p)),
    ],
    hide: [...new Set(hide)],
    network: o.policy.network,
  };
}
