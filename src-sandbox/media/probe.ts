import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, join, resolve as resolvePath } from 'node:path';
import { SNIFF_BYTES, detectBytes, isMediaInput, probeArgv } from '../../src-shared/media-input';
import { isExecutableFileSync, readFileHead } from '../../src-main/core/files';

let ffprobeBin: string | null | undefined;

/** ffprobe from PATH, else the bundled @ffprobe-installer binary; null when neither exists. */
export function ffprobePath(): string | null {
  if (ffprobeBin !== undefined) return ffprobeBin;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffprobe');
    if (isExecutableFileSync(candidate)) {
      ffprobeBin = candidate;
      return candidate;
    }
  }
  try {
    const require = createRequire(import.meta.url);
    ffprobeBin = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
  } catch {
    ffprobeBin = null;
  }
  return ffprobeBin;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  r_frame_rate?: string;
  pix_fmt?: string;
}
interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
}

const fps = (rate: string | undefined): number | null => {
  const [n, d] = (rate ?? '').split('/').map(Number);
  return n && d ? Math.round((n / d) * 1000) / 1000 : null;
};

/**
 * Width, height, duration, codecs and format of a stored object, read with ffprobe (no shell) through the
 * media input door (src-shared/media-input.ts): bytes that are not a container on its allowlist (a playlist
 * uploaded as `video/mp4`) are never given to ffprobe.
 */
export async function probeMedia(
  file: string,
  mediaType: 'image' | 'video',
): Promise<Record<string, unknown>> {
  const bin = ffprobePath();
  if (!bin) return { probe_error: 'ffprobe is not available' };
  const path = resolvePath(file);
  const detected = await readFileHead(path, SNIFF_BYTES)
    .then(detectBytes)
    .catch(() => null);
  if (!detected || !isMediaInput(detected.format))
    return { probe_error: 'the bytes are not a picture or video ffprobe is given' };
  const argv = probeArgv(detected, path);
  return new Promise((resolve) => {
    execFile(bin, [...argv.args], { timeout: 15_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => {
      if (err) {
        resolve({ probe_error: 'ffprobe could not read the file' });
        return;
      }
      try {
        const out = JSON.parse(stdout) as ProbeOutput;
        const video = out.streams?.find((s) => s.codec_type === 'video');
        const audio = out.streams?.find((s) => s.codec_type === 'audio');
        const duration = Number(out.format?.duration ?? video?.duration);
        const meta: Record<string, unknown> = {
          width: video?.width ?? null,
          height: video?.height ?? null,
          codec: video?.codec_name ?? null,
          format: out.format?.format_name ?? null,
        };
        if (mediaType === 'video') {
          meta.duration_seconds = Number.isFinite(duration) ? duration : null;
          meta.frame_rate = fps(video?.r_frame_rate);
          meta.audio_codec = audio?.codec_name ?? null;
          meta.bit_rate = out.format?.bit_rate ? Number(out.format.bit_rate) : null;
        }
        resolve(meta);
      } catch {
        resolve({ probe_error: 'ffprobe output was not JSON' });
      }
    });
  });
}
