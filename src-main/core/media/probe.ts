import { resolve } from 'node:path';
import { z } from 'zod';
import { probeArgv } from '../../../src-shared/media-input';
import { detectFile } from './detect';
import { defaultTools, runTool } from './tools';
import type { Tools } from './tools';

// ffprobe's JSON is input from another program: parse it, keep only what we use.
const Num = z.union([z.number(), z.string()]).transform((v) => Number(v));
const FfprobeStream = z.looseObject({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  duration: Num.optional(),
  avg_frame_rate: z.string().optional(),
  channels: z.number().optional(),
  sample_rate: Num.optional(),
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.looseObject({ rotation: Num.optional() })).optional(),
});
const FfprobeOutput = z.looseObject({
  streams: z.array(FfprobeStream).default([]),
  format: z
    .looseObject({
      format_name: z.string().optional(),
      duration: Num.optional(),
      bit_rate: Num.optional(),
    })
    .optional(),
});

export interface VideoStreamInfo {
  readonly codec: string;
  readonly width: number;
  readonly height: number;
  /** Degrees a player turns the picture, as ffprobe reports it: 0, 90, 180 or 270. */
  readonly rotation: number;
  /** Width and height as shown, after rotation. */
  readonly displayWidth: number;
  readonly displayHeight: number;
  readonly frameRate: number | null;
}

export interface AudioStreamInfo {
  readonly codec: string;
  readonly channels: number | null;
  readonly sampleRate: number | null;
}

export interface ProbeResult {
  readonly formatName: string;
  readonly durationSec: number | null;
  readonly bitRate: number | null;
  readonly video: VideoStreamInfo | null;
  readonly audio: AudioStreamInfo | null;
}

const finite = (n: number | undefined): number | null => (n !== undefined && Number.isFinite(n) ? n : null);

function rotationOf(stream: z.infer<typeof FfprobeStream>): number {
  // Older ffprobe shows the `rotate` tag; newer ones a display matrix. Both builds we ship report a file tagged
  // `rotate=90` as 90, so the two are read alike; only the swap of width and height depends on it.
  const fromTag = stream.tags?.rotate !== undefined ? Number(stream.tags.rotate) : NaN;
  const fromMatrix = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const deg = Number.isFinite(fromTag) ? fromTag : (fromMatrix ?? 0);
  return (((Math.round(deg) % 360) + 360) % 360) as number;
}

function frameRate(text: string | undefined): number | null {
  const m = /^(\d+)\/(\d+)$/.exec(text ?? '');
  if (!m || Number(m[2]) === 0) return null;
  return Number(m[1]) / Number(m[2]);
}

/** Parses ffprobe's `-print_format json -show_format -show_streams` output. */
export function parseProbeJson(json: string): ProbeResult {
  const out = FfprobeOutput.parse(JSON.parse(json));
  const v = out.streams.find((s) => s.codec_type === 'video' && s.width !== undefined);
  const a = out.streams.find((s) => s.codec_type === 'audio');
  let video: VideoStreamInfo | null = null;
  if (v?.width !== undefined && v.height !== undefined) {
    const rotation = rotationOf(v);
    const quarter = rotation === 90 || rotation === 270;
    video = {
      codec: v.codec_name ?? 'unknown',
      width: v.width,
      height: v.height,
      rotation,
      displayWidth: quarter ? v.height : v.width,
      displayHeight: quarter ? v.width : v.height,
      frameRate: frameRate(v.avg_frame_rate),
    };
  }
  const audio: AudioStreamInfo | null = a
    ? { codec: a.codec_name ?? 'unknown', channels: a.channels ?? null, sampleRate: finite(a.sample_rate) }
    : null;
  return {
    formatName: out.format?.format_name ?? 'unknown',
    durationSec: finite(out.format?.duration) ?? finite(v?.duration) ?? finite(a?.duration),
    bitRate: finite(out.format?.bit_rate),
    video,
    audio,
  };
}

export interface ProbeOptions {
  readonly tools?: Tools | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Dimensions, duration, codecs and rotation. Rejects with MediaInputRefused (before ffprobe starts) when the
 * bytes are not a container on the allowlist, and with ToolFailedError when ffprobe cannot read the file.
 */
export async function probeFile(path: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const file = resolve(path);
  const argv = probeArgv(await detectFile(file), file);
  const tool = (opts.tools ?? defaultTools()).ffprobe();
  return parseProbeJson(await runTool(tool, argv, { signal: opts.signal }));
}
