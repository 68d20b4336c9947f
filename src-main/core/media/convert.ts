import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { detectFile } from './detect';
import { probeFile } from './probe';
import type { ProbeResult } from './probe';
import { formatBytes } from '../../../src-shared/format-bytes';
import {
  MediaInputRefused,
  convertArgv,
  type ConvertMode,
  type Detected,
} from '../../../src-shared/media-input';
import { defaultTools, runTool } from './tools';
import type { Tools } from './tools';
import { removePath, renamePath, statPath } from '../files';

export interface ConvertProgress {
  readonly attempt: number;
  readonly mode: ConvertMode;
  /** 0..100, or null while the duration is unknown. */
  readonly percent: number | null;
  readonly outTimeSec: number;
  readonly durationSec: number | null;
  readonly speed: number | null;
  readonly bytes: number;
  readonly done: boolean;
}

export type { ConvertMode } from '../../../src-shared/media-input';

export interface ConvertOptions {
  /** Output file; by default `<name>.mp4` beside the input (`<name>.converted.mp4` for an MP4 input). */
  readonly out?: string | undefined;
  /** The output must not be larger than this; the video is compressed to fit. */
  readonly maxBytes?: number | undefined;
  readonly tools?: Tools | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: ConvertProgress) => void) | undefined;
  /** Encodes tried before giving up on `maxBytes`. */
  readonly maxAttempts?: number | undefined;
}

export interface ConvertResult {
  readonly input: string;
  readonly output: string;
  readonly bytes: number;
  readonly mode: ConvertMode;
  readonly attempts: number;
  /** The video bitrate of the last compress attempt, bits per second. */
  readonly videoBitrate: number | null;
  readonly probe: ProbeResult;
}

export class CannotConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotConvertError';
  }
}

const MIN_VIDEO_BPS = 64_000;
// The container, audio bitrate swings and encoder overshoot all eat into the budget; keep a margin.
const BUDGET_SHARE = 0.96;
// Headers and index: about 2% of a small file, never more than 32 KiB.
const containerBytes = (maxBytes: number): number => Math.min(32 * 1024, Math.floor(maxBytes * 0.02));

export function defaultOutputPath(input: string): string {
  const ext = extname(input);
  const stem = basename(input, ext);
  const name = ext.toLowerCase() === '.mp4' ? `${stem}.converted.mp4` : `${stem}.mp4`;
  return join(dirname(input), name);
}

const kbits = (bps: number): string => `${Math.max(0, Math.floor(bps / 1000))} kbit/s`;

/**
 * Why `durationSec` of video cannot fit in `maxBytes`, with the audio's share of the budget (the part people do not
 * expect), and the size that would fit.
 */
export function explainNoFit(maxBytes: number, durationSec: number, audioBps: number): string {
  const total = ((maxBytes - containerBytes(maxBytes)) * 8 * BUDGET_SHARE) / durationSec;
  const needed = Math.ceil(((MIN_VIDEO_BPS + audioBps) * durationSec) / 8 / BUDGET_SHARE) + 32 * 1024;
  const audio = audioBps
    ? `, of which the audio track takes ${kbits(audioBps)}, leaving ${kbits(total - audioBps)} for the picture`
    : '';
  return (
    `${durationSec.toFixed(1)} s cannot fit in ${formatBytes(maxBytes)}: that is ${kbits(total)} in all${audio},` +
    ` and a watchable picture needs at least ${kbits(MIN_VIDEO_BPS)}. It fits in about ${formatBytes(needed)}` +
    `${audioBps ? `, or in less without the audio track (ffmpeg -an)` : ''}`
  );
}

/** Video and audio bitrates (bits/s) that fit `maxBytes` over `durationSec`, or null when nothing sensible fits. */
export function bitratesFor(
  maxBytes: number,
  durationSec: number,
  hasAudio: boolean,
): { video: number; audio: number } | null {
  const total = ((maxBytes - containerBytes(maxBytes)) * 8 * BUDGET_SHARE) / durationSec;
  const audio = !hasAudio ? 0 : total >= 1_000_000 ? 128_000 : total >= 300_000 ? 96_000 : 64_000;
  const video = Math.floor(total - audio);
  return video >= MIN_VIDEO_BPS ? { video, audio } : null;
}

/** Parses `-progress pipe:1` blocks (`key=value` lines ending in `progress=continue|end`). */
export function createProgressParser(
  onBlock: (fields: ReadonlyMap<string, string>) => void,
): (chunk: string) => void {
  let pending = '';
  let fields = new Map<string, string>();
  return (chunk) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      const eq = line.indexOf('=');
      if (eq <= 0) continue;
      const key = line.slice(0, eq);
      fields.set(key, line.slice(eq + 1));
      if (key === 'progress') {
        onBlock(fields);
        fields = new Map();
      }
    }
  };
}

function outTimeSec(f: ReadonlyMap<string, string>): number {
  // `out_time_ms` is in microseconds despite its name; newer builds add `out_time_us`.
  const us = Number(f.get('out_time_us') ?? f.get('out_time_ms'));
  if (Number.isFinite(us) && us >= 0) return us / 1e6;
  const m = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(f.get('out_time') ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}

async function encode(
  detected: Detected,
  input: string,
  output: string,
  mode: ConvertMode,
  rates: { video: number; audio: number } | null,
  attempt: number,
  durationSec: number | null,
  opts: ConvertOptions,
): Promise<number> {
  const tool = (opts.tools ?? defaultTools()).ffmpeg();
  const argv = convertArgv(detected, input, output, mode, rates);
  const parse = createProgressParser((f) => {
    const t = outTimeSec(f);
    const speed = Number.parseFloat(f.get('speed') ?? '');
    const done = f.get('progress') === 'end';
    opts.onProgress?.({
      attempt,
      mode,
      percent: done ? 100 : durationSec ? Math.min(99.9, (t / durationSec) * 100) : null,
      outTimeSec: t,
      durationSec,
      speed: Number.isFinite(speed) ? speed : null,
      bytes: Number(f.get('total_size')) || 0,
      done,
    });
  });
  await runTool(tool, argv, { signal: opts.signal, onStdout: parse });
  return (await statPath(output)).size;
}

/**
 * Turns MOV, M4V, WebM (and any video ffmpeg reads) into an H.264/AAC MP4 with its index up front, and, given
 * `maxBytes`, compresses it until it fits: the bitrate comes from the duration, and a result that is still too big
 * is encoded again at a bitrate scaled by how far it overshot. Abort with `signal`; a partial output is removed.
 */
export async function convertToMp4(input: string, opts: ConvertOptions = {}): Promise<ConvertResult> {
  const src = resolve(input);
  const out = resolve(opts.out ?? defaultOutputPath(src));
  if (out === src)
    throw new CannotConvertError(`${basename(src)}: the output would overwrite the input; pass --out`);
  const [detected, srcStat] = await Promise.all([detectFile(src), statPath(src)]);
  // Only a container on the media input allowlist reaches ffmpeg (src-shared/media-input.ts): a playlist, a
  // concat list or anything unrecognised is refused here, before any program starts.
  const probe = await probeFile(src, { tools: opts.tools, signal: opts.signal }).catch((e: unknown) => {
    throw e instanceof MediaInputRefused ? new CannotConvertError(`${basename(src)}: ${e.message}`) : e;
  });
  if (!probe.video) throw new CannotConvertError(`${basename(src)}: no video stream to convert`);
  const maxBytes = opts.maxBytes;
  const copyable =
    ['mp4', 'mov', 'm4v'].includes(detected.format) &&
    probe.video.codec === 'h264' &&
    (!probe.audio || probe.audio.codec === 'aac');

  type Rates = { video: number; audio: number };
  const plan: { mode: ConvertMode; rates: Rates | null } = {
    mode: copyable && (!maxBytes || srcStat.size <= maxBytes) ? 'remux' : 'transcode',
    rates: null,
  };
  const planCompress = (limit: number): void => {
    if (!probe.durationSec) {
      throw new CannotConvertError(`${basename(src)}: the duration is unknown, so no bitrate can be chosen`);
    }
    const rates = bitratesFor(limit, probe.durationSec, probe.audio !== null);
    if (!rates) {
      // At sizes this small the audio gets its lowest bitrate, which bitratesFor still takes out of the budget.
      const audio = probe.audio ? 64_000 : 0;
      throw new CannotConvertError(`${basename(src)}: ${explainNoFit(limit, probe.durationSec, audio)}`);
    }
    plan.mode = 'compress';
    plan.rates = rates;
  };
  if (plan.mode === 'transcode' && maxBytes && srcStat.size > maxBytes) planCompress(maxBytes);

  const tmp = join(dirname(out), `.${basename(out)}.${randomBytes(4).toString('hex')}.part`);
  const maxAttempts = opts.maxAttempts ?? 4;
  let attempts = 0;
  try {
    for (;;) {
      attempts += 1;
      const bytes = await encode(
        detected,
        src,
        tmp,
        plan.mode,
        plan.rates,
        attempts,
        probe.durationSec,
        opts,
      );
      if (!maxBytes || bytes <= maxBytes) {
        await renamePath(tmp, out);
        const result = await probeFile(out, { tools: opts.tools, signal: opts.signal });
        const videoBitrate = plan.rates?.video ?? null;
        return { input: src, output: out, bytes, mode: plan.mode, attempts, videoBitrate, probe: result };
      }
      if (attempts >= maxAttempts) {
        throw new CannotConvertError(
          `${basename(src)}: still ${formatBytes(bytes)} after ${attempts} attempts; the limit is ${formatBytes(maxBytes)}`,
        );
      }
      if (plan.mode !== 'compress' || !plan.rates) {
        planCompress(maxBytes);
      } else {
        // Overshoot scales the next bitrate down, with a margin so the next try lands under the limit.
        const video = Math.floor(plan.rates.video * (maxBytes / bytes) * 0.92);
        if (video < MIN_VIDEO_BPS) {
          throw new CannotConvertError(
            `${basename(src)}: ${explainNoFit(maxBytes, probe.durationSec ?? 1, plan.rates.audio)}`,
          );
        }
        plan.rates = { video, audio: plan.rates.audio };
      }
    }
  } finally {
    await removePath(tmp).catch(() => undefined);
  }
}
