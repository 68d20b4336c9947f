import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { versionArgv, type ToolArgv } from '../../../src-shared/media-input';
import { isExecutableFileSync } from '../files';

export type ToolName = 'ffmpeg' | 'ffprobe';

/** Explicit binary paths (from the app's settings or the CLI); they win over everything else. */
export interface ToolSettings {
  readonly ffmpegPath?: string | undefined;
  readonly ffprobePath?: string | undefined;
}

export interface ResolvedTool {
  readonly name: ToolName;
  readonly path: string;
  /** `setting`: the user's path; `npm`: the build bundled with Postdesk; `path`: the system's, on PATH. */
  readonly source: 'setting' | 'npm' | 'path';
  /** What `-version` says (`5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static`), or null when it says nothing. */
  readonly version: string | null;
  /** A build at least `MIN_RELEASE` (or a snapshot from `MIN_SNAPSHOT_YEAR` on): see `isRecentBuild`. */
  readonly recent: boolean;
}

export interface Tools {
  readonly ffmpeg: () => ResolvedTool;
  readonly ffprobe: () => ResolvedTool;
}

export class ToolNotFoundError extends Error {
  constructor(
    readonly tool: ToolName,
    readonly tried: readonly string[],
  ) {
    super(
      `${tool} was not found (tried ${tried.join(', ')}); install ffmpeg (e.g. apt install ffmpeg), or set the ${tool}Path setting (Settings, or \`postdesk config set ${tool}Path PATH\`) or ${ENV_SETTING[tool]}`,
    );
    this.name = 'ToolNotFoundError';
  }
}

const ENV_SETTING: Readonly<Record<ToolName, string>> = {
  ffmpeg: 'POSTDESK_FFMPEG_PATH',
  ffprobe: 'POSTDESK_FFPROBE_PATH',
};
const NPM_PACKAGE: Readonly<Record<ToolName, string>> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

function isExecutable(path: string): boolean {
  return isExecutableFileSync(path);
}

/**
 * Inside a packaged Electron app a module's files resolve into `app.asar`, which cannot execute a
 * binary: electron-builder unpacks those next to it, in `app.asar.unpacked`.
 */
export function unpackedAsarPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

function fromNpm(tool: ToolName): string | null {
  try {
    const req = createRequire(import.meta.url);
    const mod = req(NPM_PACKAGE[tool]) as { path?: unknown };
    if (typeof mod.path !== 'string') return null;
    return unpackedAsarPath(mod.path);
  } catch {
    // The installer packages throw (a string, not an Error) when their platform binary is missing.
    return null;
  }
}

/** The first executable `ffmpeg`/`ffprobe` on PATH, skipping files that cannot run. */
export function findOnPath(tool: ToolName, env: NodeJS.ProcessEnv = process.env): string | null {
  const exe = process.platform === 'win32' ? `${tool}.exe` : tool;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, exe))) return join(dir, exe);
  }
  return null;
}

/**
 * The oldest ffmpeg Postdesk prefers: 5.1, the long-term release of July 2022 that Debian 12 and Ubuntu 24.04
 * still patch. Every older line is out of upstream support, and the demuxers ffmpeg reads untrusted files with
 * had many fixed holes since (the bundled @ffmpeg-installer binary is a 2018 snapshot). A git snapshot has no
 * number, only its copyright year: one from 2023 on is past 5.1.
 */
export const MIN_RELEASE = { major: 5, minor: 1 } as const;
export const MIN_SNAPSHOT_YEAR = 2023;

/** The version word of `-version`'s first line, and whether that build is recent enough. */
export function readVersion(text: string): { version: string | null; recent: boolean } {
  const version = /\bversion\s+(\S+)/.exec(text)?.[1] ?? null;
  const release = /^n?(\d+)\.(\d+)/.exec(version ?? '');
  if (release) {
    const [major, minor] = [Number(release[1]), Number(release[2])];
    return {
      version,
      recent: major > MIN_RELEASE.major || (major === MIN_RELEASE.major && minor >= MIN_RELEASE.minor),
    };
  }
  const year = Number(
    /Copyright \(c\) \d{4}-(\d{4})/.exec(text)?.[1] ?? /^(\d{4})-\d\d-\d\d/.exec(version ?? '')?.[1],
  );
  return { version, recent: Number.isFinite(year) && year >= MIN_SNAPSHOT_YEAR };
}

const versions = new Map<string, { version: string | null; recent: boolean }>();
/** Asks a binary its version once per process (a few milliseconds); one that does not answer is not recent. */
function versionOf(tool: ToolName, path: string): { version: string | null; recent: boolean } {
  let found = versions.get(path);
  if (!found) {
    try {
      const text = execFileSync(path, [...versionArgv(tool).args], {
        encoding: 'utf8',
        timeout: 5_000,
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
      });
      found = readVersion(text.split('\n').slice(0, 3).join('\n'));
    } catch {
      found = { version: null, recent: false };
    }
    versions.set(path, found);
  }
  return found;
}

const resolved = (name: ToolName, path: string, source: ResolvedTool['source']): ResolvedTool => ({
  name,
  path,
  source,
  ...versionOf(name, path),
});

/**
 * Finds one binary: a setting (argument, then environment) always wins. Otherwise the system's (PATH) when it
 * is recent enough, else the bundled npm one when it is, else whichever exists, the system's first: a
 * distribution's old ffmpeg still gets its security fixes, the bundled snapshot never does.
 * A setting that points at nothing is an error rather than a silent fallback: the user asked for that binary.
 */
export function findTool(tool: ToolName, settings: ToolSettings = {}, env = process.env): ResolvedTool {
  const setting = (tool === 'ffmpeg' ? settings.ffmpegPath : settings.ffprobePath) ?? env[ENV_SETTING[tool]];
  if (setting) {
    if (isExecutable(setting)) return resolved(tool, setting, 'setting');
    throw new ToolNotFoundError(tool, [`the setting ${setting}`]);
  }
  const onPath = findOnPath(tool, env);
  const npmPath = fromNpm(tool);
  const candidates = [
    ...(onPath ? [resolved(tool, onPath, 'path')] : []),
    ...(npmPath && isExecutable(npmPath) ? [resolved(tool, npmPath, 'npm')] : []),
  ];
  const chosen = candidates.find((c) => c.recent) ?? candidates[0];
  if (chosen) return chosen;
  throw new ToolNotFoundError(tool, ['PATH', NPM_PACKAGE[tool]]);
}

/** Lazily resolved and memoised, so a missing ffmpeg only matters to the operations that need it. */
export function createTools(settings: ToolSettings = {}, env = process.env): Tools {
  const memo = new Map<ToolName, ResolvedTool>();
  const get = (tool: ToolName) => (): ResolvedTool => {
    let found = memo.get(tool);
    if (!found) {
      found = findTool(tool, settings, env);
      memo.set(tool, found);
    }
    return found;
  };
  return { ffmpeg: get('ffmpeg'), ffprobe: get('ffprobe') };
}

/** The saved settings' paths, each under its environment variable (which wins, as POSTDESK_BASE_URL does). */
export function toolSettingsOf(
  saved: Readonly<{ ffmpegPath: string | null; ffprobePath: string | null }> | null,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ToolSettings {
  return {
    ffmpegPath: env[ENV_SETTING.ffmpeg] || saved?.ffmpegPath || undefined,
    ffprobePath: env[ENV_SETTING.ffprobe] || saved?.ffprobePath || undefined,
  };
}

/**
 * Tools that follow settings which may change while running (the Settings screen): read on each use,
 * resolved again only when the paths differ, so a new path applies to the next ffmpeg run.
 */
export function createSettingsTools(read: () => ToolSettings, env = process.env): Tools {
  let key: string | null = null;
  let tools: Tools = createTools({}, env);
  const current = (): Tools => {
    const s = read();
    const next = JSON.stringify([s.ffmpegPath ?? null, s.ffprobePath ?? null]);
    if (next !== key) {
      key = next;
      tools = createTools(s, env);
    }
    return tools;
  };
  return { ffmpeg: () => current().ffmpeg(), ffprobe: () => current().ffprobe() };
}

/** The tool's source, in a person's words. */
export const SOURCE_WORDS: Readonly<Record<ResolvedTool['source'], string>> = {
  setting: 'the one chosen in Settings (or the environment)',
  npm: 'bundled with Postdesk',
  path: "the system's, on PATH",
};

export interface ToolReport {
  readonly name: ToolName;
  readonly path: string | null;
  readonly source: ResolvedTool['source'] | null;
  readonly version: string | null;
  readonly recent: boolean;
  readonly note: string | null;
}

/**
 * Which binary each tool resolves to and what the person should know about it: the Settings screen's Media
 * tools card and `postdesk doctor` both show this. Never throws: a missing tool is a report too.
 */
export function reportTools(tools: Tools): { readonly ffmpeg: ToolReport; readonly ffprobe: ToolReport } {
  const one = (name: ToolName): ToolReport => {
    let t: ResolvedTool;
    try {
      t = tools[name]();
    } catch (err) {
      const chosen = err instanceof ToolNotFoundError && err.tried[0]?.startsWith('the setting ');
      return {
        name,
        path: null,
        source: null,
        version: null,
        recent: false,
        note: chosen
          ? `the ${name} program chosen in Settings is not there; choose another, or empty the field`
          : `no ${name} was found: install ffmpeg ${MIN_RELEASE.major}.${MIN_RELEASE.minor} or later (e.g. apt install ffmpeg)`,
      };
    }
    const min = `${MIN_RELEASE.major}.${MIN_RELEASE.minor}`;
    const note = t.recent
      ? null
      : t.source === 'npm'
        ? `only the ${name} bundled with Postdesk was found, an old build that gets no security fixes; install ffmpeg ${min} or later (e.g. apt install ffmpeg), which Postdesk then prefers`
        : `this ${name} is older than ${min}; a newer one gets the security fixes of the formats it reads`;
    return { name, path: t.path, source: t.source, version: t.version, recent: t.recent, note };
  };
  return { ffmpeg: one('ffmpeg'), ffprobe: one('ffprobe') };
}

let defaults: Tools | undefined;
export const defaultTools = (): Tools => (defaults ??= createTools());

export class ToolFailedError extends Error {
  constructor(
    readonly tool: ToolName,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    const last = stderrTail.trim().split('\n').filter(Boolean).slice(-3).join('; ');
    super(`${tool} failed (exit ${exitCode ?? 'signal'})${last ? `: ${last}` : ''}`);
    this.name = 'ToolFailedError';
  }
}

export interface RunOptions {
  readonly signal?: AbortSignal | undefined;
  /** Receives stdout as it arrives instead of collecting it. */
  readonly onStdout?: ((chunk: string) => void) | undefined;
}

const STDERR_KEEP = 16 * 1024;

/**
 * Runs a tool with an argument list made by the media input door (src-shared/media-input.ts: every input with
 * its forced demuxer and `-protocol_whitelist file`), never a shell; resolves with stdout, or rejects with its
 * stderr.
 */
export function runTool(tool: ResolvedTool, argv: ToolArgv, opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    if (argv.tool !== tool.name) {
      reject(new Error(`runTool: ${argv.tool} arguments given to ${tool.name}`));
      return;
    }
    const child = spawn(tool.path, [...argv.args], { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (opts.onStdout) opts.onStdout(chunk);
      else stdout += chunk;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('error', (err) => {
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.signal?.aborted) reject(opts.signal.reason);
      else if (code === 0) resolve(stdout);
      else reject(new ToolFailedError(tool.name, code, stderr));
    });
  });
}
