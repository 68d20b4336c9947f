import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool } from '../../src-main/core/media/tools';

/**
 * Real media files made with ffmpeg, for tests. Generated once per test run (keyed by the vitest process, so every
 * test file of a run shares them) into a temp directory; directories of finished runs are removed.
 */
export interface MediaFixtures {
  readonly dir: string;
  /** 1 s, 64×48, H.264/AAC, index first. */
  readonly mp4: string;
  /** The same picture as `mp4`, without faststart: the index sits at the end. */
  readonly mp4IndexLast: string;
  /** 3 s, 160×120, high bitrate: something worth compressing. */
  readonly mp4Large: string;
  /** `mp4` with a 90° rotation tag. */
  readonly mp4Rotated: string;
  /** QuickTime, MPEG-4 part 2 video + AAC: needs a real transcode. */
  readonly mov: string;
  /** H.264/AAC with the `M4V ` brand: converts by remuxing. */
  readonly m4v: string;
  /** VP8/Vorbis. */
  readonly webm: string;
  readonly jpeg: string;
  readonly png: string;
  readonly webp: string;
  /** The first 60% of `mp4IndexLast`: no index, cut mid-`mdat`. */
  readonly truncatedMp4: string;
  /** A PNG whose name says MP4. */
  readonly pngNamedMp4: string;
  /** A real MP4 head padded (sparsely, no bytes written) to 230.5 MiB: over the 200 MiB MP4 limit. */
  readonly oversizeMp4: string;
  /** A JPEG padded sparsely to 16 MiB: over the 15 MiB image limit. */
  readonly oversizeJpeg: string;
  /** A real MP4 padded sparsely to 65 MiB: fine for uploads, over the 64 MiB direct-upload limit. */
  readonly overDirectMp4: string;
  /** A GIF: recognised, not accepted. */
  readonly gif: string;
}

const VERSION = 'v1';
const MiB = 1024 * 1024;
const NAMES = {
  mp4: 'clip.mp4',
  mp4IndexLast: 'index-last.mp4',
  mp4Large: 'large.mp4',
  mp4Rotated: 'rotated.mp4',
  mov: 'clip.mov',
  m4v: 'clip.m4v',
  webm: 'clip.webm',
  jpeg: 'image.jpg',
  png: 'image.png',
  webp: 'image.webp',
  truncatedMp4: 'truncated.mp4',
  pngNamedMp4: 'png-named.mp4',
  oversizeMp4: 'oversize.mp4',
  oversizeJpeg: 'oversize.jpg',
  overDirectMp4: 'over-direct.mp4',
  gif: 'image.gif',
} as const satisfies Record<keyof Omit<MediaFixtures, 'dir'>, string>;

const SRC = ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=1'];
const TONE = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'];
const H264 = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-pix_fmt',
  'yuv420p',
  '-c:a',
  'aac',
  '-b:a',
  '32k',
  '-shortest',
];

function generate(dir: string): void {
  const ffmpeg = findTool('ffmpeg').path;
  const run = (...args: string[]): void => {
    execFileSync(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
      stdio: 'pipe',
    });
  };
  const at = (name: string): string => join(dir, name);
  run(...SRC, ...TONE, ...H264, '-movflags', '+faststart', at(NAMES.mp4));
  run(...SRC, ...TONE, ...H264, at(NAMES.mp4IndexLast));
  run(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=25:duration=3',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '4',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-shortest',
    '-movflags',
    '+faststart',
    at(NAMES.mp4Large),
  );
  run('-i', at(NAMES.mp4), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', at(NAMES.mp4Rotated));
  run(...SRC, ...TONE, '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', '-f', 'mov', at(NAMES.mov));
  run('-i', at(NAMES.mp4), '-c', 'copy', '-f', 'mp4', '-brand', 'M4V ', at(NAMES.m4v));
  run(...SRC, ...TONE, '-c:v', 'libvpx', '-b:v', '200k', '-c:a', 'libvorbis', '-shortest', at(NAMES.webm));
  run('-f', 'lavfi', '-i', 'testsrc=size=32x24', '-frames:v', '1', at(NAMES.jpeg));
  run('-f', 'lavfi', '-i', 'testsrc=size=32x24', '-frames:v', '1', at(NAMES.png));
  run('-f', 'lavfi', '-i', 'testsrc=size=32x24', '-frames:v', '1', '-c:v', 'libwebp', at(NAMES.webp));
  run('-f', 'lavfi', '-i', 'testsrc=size=32x24', '-frames:v', '1', at(NAMES.gif));

  const indexLast = readFileSync(at(NAMES.mp4IndexLast));
  writeFileSync(at(NAMES.truncatedMp4), indexLast.subarray(0, Math.floor(indexLast.length * 0.6)));
  copyFileSync(at(NAMES.png), at(NAMES.pngNamedMp4));
  // Sparse padding: the size is real, no bytes are written, the disk does not fill.
  copyFileSync(at(NAMES.mp4), at(NAMES.oversizeMp4));
  truncateSync(at(NAMES.oversizeMp4), Math.round(230.5 * MiB));
  copyFileSync(at(NAMES.jpeg), at(NAMES.oversizeJpeg));
  truncateSync(at(NAMES.oversizeJpeg), 16 * MiB);
  copyFileSync(at(NAMES.mp4), at(NAMES.overDirectMp4));
  truncateSync(at(NAMES.overDirectMp4), 65 * MiB);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes fixture directories whose test run has ended. */
function sweep(root: string): void {
  for (const name of readdirSync(root)) {
    const m = /^postdesk-media-fixtures-(\d+)-/.exec(name);
    if (m && !alive(Number(m[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
}

let cached: MediaFixtures | undefined;

/** The fixtures of this test run, generating them on first use. */
export function mediaFixtures(): MediaFixtures {
  if (cached) return cached;
  const root = tmpdir();
  const owner = process.ppid > 1 ? process.ppid : process.pid;
  const dir = join(root, `postdesk-media-fixtures-${owner}-${VERSION}`);
  if (!existsSync(join(dir, NAMES.gif))) {
    sweep(root);
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    generate(tmp);
    try {
      renameSync(tmp, dir);
    } catch {
      // Another test file of this run finished first; its files are identical.
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const files = Object.fromEntries(Object.entries(NAMES).map(([k, v]) => [k, join(dir, v)]));
  cached = { dir, ...(files as Record<keyof typeof NAMES, string>) };
  return cached;
}
