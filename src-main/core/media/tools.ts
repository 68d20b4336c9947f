import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
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
  readonly source: 'setting' | 'npm' | 'path';
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
 * Finds one binary: a setting (argument, then environment), then the npm-shipped binary, then PATH.
 * A setting that points at nothing is an error rather than a silent fallback: the user asked for that binary.
 */
export function findTool(tool: ToolName, settings: ToolSettings = {}, env = process.env): ResolvedTool {
  const setting = (tool === 'ffmpeg' ? settings.ffmpegPath : settings.ffprobePath) ?? env[ENV_SETTING[tool]];
  if (setting) {
    if (isExecutable(setting)) return { name: tool, path: setting, source: 'setting' };
    throw new ToolNotFoundError(tool, [`the setting ${setting}`]);
  }
  const npm = fromNpm(tool);
  if (npm && isExecutable(npm)) return { name: tool, path: npm, source: 'npm' };
  const onPath = findOnPath(tool, env);
  if (onPath) return { name: tool, path: onPath, source: 'path' };
  throw new ToolNotFoundError(tool, [NPM_PACKAGE[tool], 'PATH']);
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

/** Runs a tool with an argument array (never a shell) and resolves with stdout, or rejects with its stderr. */
export function runTool(tool: ResolvedTool, args: readonly string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    const child = spawn(tool.path, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
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
