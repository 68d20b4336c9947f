import type { UploadContentType } from '../../../src-shared/api/media';
import { openForReading } from '../files';

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

const SNIFF_BYTES = 64;

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

/** Reads the start of `path` and says what it is. */
export async function detectFile(path: string): Promise<Detected> {
  const fh = await openForReading(path);
  try {
    const buf = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return detectBytes(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}
