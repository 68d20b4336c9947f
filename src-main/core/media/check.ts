import { basename, extname } from 'node:path';
import { LIMITS, uploadLimitFor } from '../../../src-shared/api/limits';
import type { UploadContentType } from '../../../src-shared/api/media';
import { detectFile } from './detect';
import type { Detected, MediaFormat } from './detect';
import { readMp4Layout } from './mp4-boxes';
import { isMediaInput } from '../../../src-shared/media-input';
import { probeFile } from './probe';
import type { ProbeResult } from './probe';
import { formatBytes } from '../../../src-shared/format-bytes';
import { ToolFailedError, ToolNotFoundError } from './tools';
import type { Tools } from './tools';
import { statPath } from '../files';

/** `upload`: a managed media upload. `direct-upload`: the executor's direct upload (MP4 only, 64 MiB). */
export type CheckPurpose = 'upload' | 'direct-upload';

export type ProblemRule =
  | 'file'
  | 'type'
  | 'size'
  | 'direct-upload-type'
  | 'direct-upload-size'
  | 'integrity'
  | 'media-count'
  | 'extension';

export interface Problem {
  /** The file's name as the user gave it, or `N files` for a rule about a whole set. */
  readonly file: string;
  readonly rule: ProblemRule;
  /** Errors stop an upload; warnings are worth reading but do not. */
  readonly severity: 'error' | 'warning';
  /** Written for a person, the same in every face: no command to type, no errno, no temporary path. */
  readonly message: string;
  readonly limit?: number;
  readonly actual?: number;
  /**
   * What would make the file acceptable, for each face to offer in its own way: the app a Convert button,
   * the command line the command (`cliHint`). `maxBytes`: compress it to fit.
   */
  readonly fix?: { readonly kind: 'convert'; readonly maxBytes?: number };
  /** A tool's own words about the file (ffprobe's last line), for the command line only. */
  readonly detail?: string;
}

/** The command line's own addition to a problem: the command that fixes it, and the tool's words. */
export function cliHint(p: Pick<Problem, 'fix' | 'detail'>, path: string): string {
  const tool = p.detail ? ` (${p.detail})` : '';
  if (!p.fix) return tool;
  const size = p.fix.maxBytes ? ` --max-size ${Math.floor(p.fix.maxBytes / (1024 * 1024))}MiB` : '';
  return `${tool}; ${p.fix.maxBytes ? 'compress' : 'convert'} it with \`postdesk media convert ${path}${size}\``;
}

export interface FileCheck {
  readonly path: string;
  readonly size: number;
  readonly detected: Detected | null;
  readonly probe: ProbeResult | null;
  /** What the file would be uploaded as; null when it cannot be uploaded as it is. */
  readonly contentType: UploadContentType | null;
  readonly problems: readonly Problem[];
  readonly ok: boolean;
}

export interface CheckOptions {
  readonly purpose?: CheckPurpose;
  /** Which files to run ffprobe on. Videos are always worth it: that is how a corrupt MP4 shows. */
  readonly probe?: 'video' | 'all' | 'none';
  readonly tools?: Tools | undefined;
  readonly signal?: AbortSignal | undefined;
}

const ACCEPTED = 'JPEG, PNG or WebP images, or MP4 video';
const EXTENSIONS: Readonly<Record<string, MediaFormat>> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
  '.mp4': 'mp4',
  '.mov': 'mov',
  '.m4v': 'm4v',
  '.webm': 'webm',
  '.mkv': 'mkv',
  '.gif': 'gif',
};

/** What to say of bytes no format recognises, by what the file's name claims it is. */
export function unrecognised(name: string): string {
  const claimed = EXTENSIONS[extname(name).toLowerCase()];
  return claimed === 'jpeg' || claimed === 'png' || claimed === 'webp' || claimed === 'gif'
    ? 'not an image (the bytes are not PNG, JPEG or WebP)'
    : 'not an image or a video (the bytes are not JPEG, PNG, WebP or MP4)';
}

/** A file that cannot be opened, said for a person rather than as an errno. */
function unreadable(code: string | undefined): string {
  if (code === 'ENOENT') return 'no such file: it was moved, renamed or deleted';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'you are not allowed to read this file';
  return 'the file cannot be read';
}

/** Why a tool could not be run, in a person's words: the program they chose is not there, or none is. */
function toolMissing(err: ToolNotFoundError): string {
  const chosen = /^the setting (.+)$/.exec(err.tried[0] ?? '')?.[1];
  return chosen
    ? `because the ${err.tool} program chosen in Settings, under Media tools, is not there (${chosen})`
    : `because ${err.tool} is not installed on this computer`;
}

const limitText = (limit: number): string => `${formatBytes(limit)} (${limit} bytes)`;

function sizeProblems(name: string, size: number, detected: Detected, purpose: CheckPurpose): Problem[] {
  const problems: Problem[] = [];
  if (purpose === 'direct-upload') {
    if (detected.format !== 'mp4') {
      problems.push({
        file: name,
        rule: 'direct-upload-type',
        severity: 'error',
        message: `${name}: direct uploads take MP4 video only; this file is ${aOrAn(detected.label)}${
          detected.convertible ? ', which can be converted to MP4' : ''
        }`,
        ...(detected.convertible ? { fix: { kind: 'convert' as const } } : {}),
      });
    }
    const limit = LIMITS.directUploadBytes;
    if (size > limit) {
      problems.push({
        file: name,
        rule: 'direct-upload-size',
        severity: 'error',
        limit,
        actual: size,
        message: `${name}: direct uploads are limited to ${limitText(limit)}; this file is ${formatBytes(size)}, and can be compressed to fit`,
        fix: { kind: 'convert', maxBytes: limit },
      });
    }
    return problems;
  }
  if (detected.mime) {
    const limit = uploadLimitFor(detected.mime);
    if (size > limit) {
      const video = detected.mime === 'video/mp4';
      const what = video ? 'MP4 uploads' : 'image uploads';
      problems.push({
        file: name,
        rule: 'size',
        severity: 'error',
        limit,
        actual: size,
        message: `${name}: ${what} are limited to ${limitText(limit)}; this file is ${formatBytes(size)}${video ? ', and can be compressed to fit' : ''}`,
        ...(video ? { fix: { kind: 'convert' as const, maxBytes: limit } } : {}),
      });
    }
  }
  return problems;
}

const aOrAn = (label: string): string =>
  /^([aeiou]|MP4|M4V|MPEG)/i.test(label) ? `an ${label}` : `a ${label}`;

async function integrityProblems(
  name: string,
  path: string,
  wantProbe: boolean,
  opts: CheckOptions,
): Promise<{ problems: Problem[]; probe: ProbeResult | null }> {
  const problems: Problem[] = [];
  const layout = await readMp4Layout(path);
  if (layout.truncated) {
    const t = layout.truncated;
    problems.push({
      file: name,
      rule: 'integrity',
      severity: 'error',
      limit: t.declaredEnd,
      actual: t.fileSize,
      message: `${name}: the MP4 is truncated: its "${t.box}" box ends at byte ${t.declaredEnd} but the file has ${t.fileSize} bytes`,
    });
  } else if (!layout.hasMoov) {
    problems.push({
      file: name,
      rule: 'integrity',
      severity: 'error',
      message: `${name}: the MP4 has no "moov" box (its index), so it cannot be played; it was probably cut short`,
    });
  }
  let probe: ProbeResult | null = null;
  if (wantProbe) {
    try {
      probe = await probeFile(path, { tools: opts.tools, signal: opts.signal });
      if (!probe.video && problems.length === 0) {
        problems.push({
          file: name,
          rule: 'integrity',
          severity: 'error',
          message: `${name}: the MP4 holds no video stream`,
        });
      }
    } catch (err) {
      if (err instanceof ToolNotFoundError) {
        problems.push({
          file: name,
          rule: 'integrity',
          severity: 'warning',
          message: `${name}: the video could not be checked, ${toolMissing(err)}; it is sent unchecked`,
          detail: err.message,
        });
      } else if (err instanceof ToolFailedError) {
        if (problems.length === 0) {
          problems.push({
            file: name,
            rule: 'integrity',
            severity: 'error',
            message: `${name}: the MP4 is damaged and cannot be read as a video`,
            detail: `ffprobe: ${err.stderrTail.trim().split('\n').at(-1) ?? 'no detail'}`,
          });
        }
      } else {
        throw err;
      }
    }
  }
  return { problems, probe };
}

/** Checks one file against the service's limits before anything is sent. */
export async function checkFile(path: string, opts: CheckOptions = {}): Promise<FileCheck> {
  const purpose = opts.purpose ?? 'upload';
  const name = basename(path);
  const fail = (problem: Omit<Problem, 'file' | 'severity'>, size = 0, detected: Detected | null = null) => ({
    path,
    size,
    detected,
    probe: null,
    contentType: null,
    problems: [{ file: name, severity: 'error' as const, ...problem }],
    ok: false,
  });

  let size: number;
  try {
    const st = await statPath(path);
    if (!st.isFile()) return fail({ rule: 'file', message: `${name}: not a regular file` });
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return fail({ rule: 'file', message: `${name}: ${unreadable(code)}` });
  }
  if (size === 0) {
    return fail({
      rule: 'file',
      limit: 1,
      actual: 0,
      message: `${name}: the file is empty; uploads need at least 1 byte`,
    });
  }
  let detected: Detected;
  try {
    detected = await detectFile(path);
  } catch (err) {
    // stat answers for a file its reader may not open (no read permission): the row says so, nothing stops.
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return fail({ rule: 'file', message: `${name}: ${unreadable(code)}` }, size);
  }
  const problems: Problem[] = [];
  const extFormat = EXTENSIONS[extname(name).toLowerCase()];
  if (!detected.mime && purpose === 'upload') {
    problems.push({
      file: name,
      rule: 'type',
      severity: 'error',
      message:
        detected.format === 'unknown'
          ? `${name}: ${unrecognised(name)}`
          : detected.convertible
            ? `${name}: ${aOrAn(detected.label)} is not accepted as it is; it can be converted to MP4`
            : `${name}: ${aOrAn(detected.label)} is not accepted; uploads take ${ACCEPTED}`,
      ...(detected.format !== 'unknown' && detected.convertible ? { fix: { kind: 'convert' as const } } : {}),
    });
  }
  if (extFormat && extFormat !== detected.format && detected.format !== 'unknown') {
    problems.push({
      file: name,
      rule: 'extension',
      severity: 'warning',
      message: `${name}: named ${extname(name)} but the bytes are ${aOrAn(detected.label)}${
        detected.mime ? `; it is sent as ${detected.mime}` : ''
      }`,
    });
  }
  problems.push(...sizeProblems(name, size, detected, purpose));

  let probe: ProbeResult | null = null;
  const mode = opts.probe ?? 'video';
  if (detected.format === 'mp4') {
    const integrity = await integrityProblems(name, path, mode !== 'none', opts);
    problems.push(...integrity.problems);
    probe = integrity.probe;
  } else if (
    isMediaInput(detected.format) &&
    (mode === 'all' || (mode === 'video' && detected.convertible))
  ) {
    // Only containers on the media input allowlist are probed (src-shared/media-input.ts): ffprobe given
    // anything else would guess from the name and the content, and follow a playlist.
    try {
      probe = await probeFile(path, { tools: opts.tools, signal: opts.signal });
    } catch (err) {
      if (!(err instanceof ToolFailedError || err instanceof ToolNotFoundError)) throw err;
      if (err instanceof ToolFailedError && (detected.convertible || detected.mime)) {
        problems.push({
          file: name,
          rule: 'integrity',
          severity: 'error',
          message: `${name}: the file is damaged and cannot be read`,
          detail: `ffprobe: ${err.stderrTail.trim().split('\n').at(-1) ?? 'no detail'}`,
        });
      }
    }
  }
  const ok = !problems.some((p) => p.severity === 'error');
  const contentType =
    purpose === 'direct-upload' ? (detected.format === 'mp4' ? 'video/mp4' : null) : detected.mime;
  return { path, size, detected, probe, contentType: ok ? contentType : null, problems, ok };
}

export interface SetCheck {
  readonly files: readonly FileCheck[];
  /** Problems about the set as a whole (the 10-media limit of one post or run output). */
  readonly setProblems: readonly Problem[];
  readonly ok: boolean;
}

/**
 * Checks several files. With `asOneOutput` they are the media of one post or run output, which carries at
 * most `LIMITS.mediaPerPost`.
 */
export async function checkFiles(
  paths: readonly string[],
  opts: CheckOptions & { readonly asOneOutput?: boolean } = {},
): Promise<SetCheck> {
  const files: FileCheck[] = [];
  for (const p of paths) files.push(await checkFile(p, opts));
  const setProblems: Problem[] = [];
  const max = LIMITS.mediaPerPost;
  if (opts.asOneOutput && paths.length > max) {
    setProblems.push({
      file: `${paths.length} files`,
      rule: 'media-count',
      severity: 'error',
      limit: max,
      actual: paths.length,
      message: `${paths.length} files: one post or run output carries at most ${max} media; this one has ${paths.length}`,
    });
  }
  return { files, setProblems, ok: files.every((f) => f.ok) && setProblems.length === 0 };
}
