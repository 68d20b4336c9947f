import type { UploadContentType } from './api/media';

/**
 * The one door for media input to ffmpeg and ffprobe: what a file's first bytes say it is, which of those
 * containers the tools may open, and every argument list they are run with (the app, the CLI, the executor
 * and the sandbox). Pure: the callers read the bytes and run the program.
 *
 * Left to itself, ffmpeg chooses a demuxer from the file's content and name, and a demuxer may open other
 * files: an HLS playlist (`.m3u8`) or a concat list names any path, an `image2` pattern (`%d.jpg`) globs
 * siblings, a `concat:`/`subfile:` name is a protocol. So every input is opened with the demuxer its sniffed
 * bytes name (`-f`), under `-protocol_whitelist file`, by a `file:` name; anything not on the allowlist is
 * refused before a program starts.
 */

/** What the bytes say a file is. Only the first `SNIFF_BYTES` are read; the file name is never consulted. */
export type MediaFormat =
  | 'jpeg'
  | 'png'
  | 'webp'
  | 'mp4'
  | 'mov'
  | 'm4v'
  | 'webm'
  | 'mkv'
  | '3gp'
  | 'gif'
  | 'heif'
  | 'audio'
  | 'empty'
  | 'unknown';

export interface Detected {
  readonly format: MediaFormat;
  /** The upload content type when the service accepts the format as it is; otherwise null. */
  readonly mime: UploadContentType | null;
  /** True when `convertToMp4` can turn it into an accepted MP4. */
  readonly convertible: boolean;
  readonly label: string;
}

export const SNIFF_BYTES = 64;

const DETECTED: Readonly<Record<MediaFormat, Detected>> = {
  jpeg: { format: 'jpeg', mime: 'image/jpeg', convertible: false, label: 'JPEG image' },
  png: { format: 'png', mime: 'image/png', convertible: false, label: 'PNG image' },
  webp: { format: 'webp', mime: 'image/webp', convertible: false, label: 'WebP image' },
  mp4: { format: 'mp4', mime: 'video/mp4', convertible: false, label: 'MP4 video' },
  mov: { format: 'mov', mime: null, convertible: true, label: 'QuickTime (MOV) video' },
  m4v: { format: 'm4v', mime: null, convertible: true, label: 'M4V video' },
  webm: { format: 'webm', mime: null, convertible: true, label: 'WebM video' },
  mkv: { format: 'mkv', mime: null, convertible: true, label: 'Matroska (MKV) video' },
  '3gp': { format: '3gp', mime: null, convertible: true, label: '3GP video' },
  gif: { format: 'gif', mime: null, convertible: false, label: 'GIF image' },
  heif: { format: 'heif', mime: null, convertible: false, label: 'HEIF/HEIC/AVIF image' },
  audio: { format: 'audio', mime: null, convertible: false, label: 'MPEG-4 audio' },
  empty: { format: 'empty', mime: null, convertible: false, label: 'empty file' },
  unknown: { format: 'unknown', mime: null, convertible: false, label: 'unrecognised data' },
};

const ascii = (b: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...b.subarray(start, Math.min(end, b.length)));
const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'dash',
  'mmp4',
  'MSNV',
  'XAVC',
]);
const M4V_BRANDS = new Set(['M4V ', 'M4VH', 'M4VP']);
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);
// Classic QuickTime files may start with any of these atoms and carry no `ftyp`.
const QT_LEADING_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function fromFtyp(b: Uint8Array): MediaFormat {
  const boxSize = ((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0);
  const major = ascii(b, 8, 12);
  const brands = [major];
  for (let at = 16; at + 4 <= Math.min(boxSize, b.length); at += 4) brands.push(ascii(b, at, at + 4));
  if (major === 'qt  ') return 'mov';
  if (M4V_BRANDS.has(major)) return 'm4v';
  if (AUDIO_BRANDS.has(major)) return 'audio';
  if (HEIF_BRANDS.has(major)) return 'heif';
  if (major.startsWith('3gp') || major.startsWith('3g2')) return '3gp';
  if (brands.some((x) => MP4_BRANDS.has(x))) return 'mp4';
  if (brands.includes('qt  ')) return 'mov';
  return 'unknown';
}

/** Classifies the first bytes of a file. */
export function detectBytes(b: Uint8Array): Detected {
  if (b.length === 0) return DETECTED.empty;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return DETECTED.jpeg;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return DETECTED.png;
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return DETECTED.webp;
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return DETECTED.gif;
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) {
    // EBML: the DocType string sits in the header's first few dozen bytes.
    const head = ascii(b, 4, b.length);
    return head.includes('webm') ? DETECTED.webm : DETECTED.mkv;
  }
  const atom = ascii(b, 4, 8);
  if (atom === 'ftyp') return DETECTED[fromFtyp(b)];
  if (QT_LEADING_ATOMS.has(atom)) return DETECTED.mov;
  return DETECTED.unknown;
}

/**
 * The containers ffmpeg and ffprobe may open, each with the demuxer forced for it: the formats the service
 * takes (JPEG, PNG, WebP, MP4) and those Convert turns into MP4 (MOV, M4V, 3GP, WebM, MKV). The image
 * demuxers are the single-picture `*_pipe` ones, which read one file and never a numbered sequence; `mov`
 * keeps its external references off (`enable_drefs` is off by default, and the whitelist holds them to files
 * anyway). GIF, HEIF, MPEG-4 audio and anything unrecognised are never given to the tools.
 */
export const MEDIA_INPUT_DEMUXERS = {
  jpeg: 'jpeg_pipe',
  png: 'png_pipe',
  webp: 'webp_pipe',
  mp4: 'mov',
  mov: 'mov',
  m4v: 'mov',
  '3gp': 'mov',
  webm: 'matroska',
  mkv: 'matroska',
} as const satisfies Partial<Record<MediaFormat, string>>;
export type MediaInputFormat = keyof typeof MEDIA_INPUT_DEMUXERS;

export const isMediaInput = (format: MediaFormat): format is MediaInputFormat =>
  Object.hasOwn(MEDIA_INPUT_DEMUXERS, format);

/** A file whose bytes are not a container on the allowlist: no program was started for it. */
export class MediaInputRefused extends Error {
  constructor(readonly detected: Detected) {
    super(
      `${detected.label === 'unrecognised data' ? 'the bytes are not' : `${detected.label} is not`} a picture or video Postdesk reads (JPEG, PNG, WebP, MP4, MOV, M4V, 3GP, WebM or MKV)`,
    );
    this.name = 'MediaInputRefused';
  }
}

declare const built: unique symbol;
/** An argument list for one tool, made only here: `runTool` takes nothing else. */
export interface ToolArgv {
  readonly tool: 'ffmpeg' | 'ffprobe';
  readonly args: readonly string[];
  readonly [built]: true;
}
const argv = (tool: ToolArgv['tool'], args: readonly string[]): ToolArgv =>
  ({ tool, args: Object.freeze([...args]) }) as unknown as ToolArgv;

/**
 * The only way a file becomes a tool's input: the demuxer its bytes name, the file protocol alone, and a
 * `file:` name, so nothing in the name (`concat:`, `|`, `%d`) or the content (a playlist) opens another file.
 * `path` must be absolute.
 */
export function inputArgs(detected: Detected, path: string): string[] {
  if (!isMediaInput(detected.format)) throw new MediaInputRefused(detected);
  return ['-f', MEDIA_INPUT_DEMUXERS[detected.format], '-protocol_whitelist', 'file', '-i', `file:${path}`];
}

/** `ffprobe`'s JSON of a file's format and streams. */
export function probeArgv(detected: Detected, path: string): ToolArgv {
  return argv('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    ...inputArgs(detected, path),
  ]);
}

/** `-version`, to say which build is in use (no input). */
export const versionArgv = (tool: ToolArgv['tool']): ToolArgv => argv(tool, ['-version']);

/** `remux`: streams copied, only the container changes. `transcode`: H.264/AAC at constant quality. `compress`: H.264/AAC at a bitrate chosen to fit `maxBytes`. */
export type ConvertMode = 'remux' | 'transcode' | 'compress';

const EVEN_DIMENSIONS = 'scale=trunc(iw/2)*2:trunc(ih/2)*2';

function codecArgs(mode: ConvertMode, rates: { video: number; audio: number } | null): string[] {
  if (mode === 'remux') return ['-c', 'copy'];
  const video = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-vf', EVEN_DIMENSIONS];
  if (mode === 'compress' && rates) {
    const v = String(rates.video);
    return [
      ...video,
      '-b:v',
      v,
      '-maxrate',
      v,
      '-bufsize',
      String(rates.video * 2),
      '-c:a',
      'aac',
      '-b:a',
      String(rates.audio || 64_000),
    ];
  }
  return [...video, '-crf', '23', '-c:a', 'aac', '-b:a', '128k'];
}

/** ffmpeg turning one video into an H.264/AAC MP4 with its index up front, progress on stdout. */
export function convertArgv(
  detected: Detected,
  input: string,
  output: string,
  mode: ConvertMode,
  rates: { video: number; audio: number } | null,
): ToolArgv {
  return argv('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    ...inputArgs(detected, input),
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    ...codecArgs(mode, rates),
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    'mp4',
    `file:${output}`,
  ]);
}

/**
 * ffmpeg drawing a square card of one colour (the built-in caption-card agent): a generated picture, no
 * file is read. `colour` is one of the agent's own hex constants, never text from elsewhere.
 */
export function cardArgv(colour: string, video: boolean, output: string): ToolArgv {
  if (!/^0x[0-9a-f]{6}$/i.test(colour)) throw new Error('cardArgv: a colour is 0xRRGGBB');
  const source = ['-f', 'lavfi', '-i', `color=c=${colour}:s=1080x1080${video ? ':r=30:d=3' : ''}`];
  const encode = video
    ? ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4']
    : ['-frames:v', '1', '-f', 'image2', '-update', '1', '-c:v', 'png'];
  return argv('ffmpeg', ['-y', '-v', 'error', ...source, ...encode, `file:${output}`]);
}
