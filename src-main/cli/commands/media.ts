import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { ValidationError } from '../../core/api/errors';
import { checkFiles, cliHint, unrecognised } from '../../core/media/check';
import type { FileCheck } from '../../core/media/check';
import { CannotConvertError, convertToMp4, defaultOutputPath } from '../../core/media/convert';
import type { ConvertProgress } from '../../core/media/convert';
import { formatBytes } from '../../../src-shared/format-bytes';
import { existingFile } from '../args';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { snakeCaseKeys } from '../json-case';
import type { Output } from '../output';
import { savedSettings, sizeOption, toolOptions, toolsFrom } from './upload';
import { pathExistsSync } from '../../core/files';

function describeFile(f: FileCheck): string {
  if (f.detected?.format === 'unknown') return `${unrecognised(f.path)}, ${formatBytes(f.size)}`;
  const parts: string[] = [f.detected?.label ?? 'unreadable', formatBytes(f.size)];
  const v = f.probe?.video;
  if (v) {
    parts.push(`${v.displayWidth}×${v.displayHeight}${v.rotation ? ` (rotated ${v.rotation}°)` : ''}`);
    parts.push(v.codec);
  }
  if (f.probe?.audio) parts.push(f.probe.audio.codec);
  if (
    f.probe?.durationSec &&
    f.detected?.format !== 'jpeg' &&
    f.detected?.format !== 'png' &&
    f.detected?.format !== 'webp'
  ) {
    parts.push(`${f.probe.durationSec.toFixed(1)} s`);
  }
  return parts.join(', ');
}

const checkJson = (f: FileCheck) => ({
  file: f.path,
  ok: f.ok,
  size: f.size,
  format: f.detected?.format ?? null,
  content_type: f.contentType,
  convertible: f.detected?.convertible ?? false,
  probe: snakeCaseKeys(f.probe),
  problems: f.problems,
});

function convertBar(out: Output): { update(p: ConvertProgress): void; stop(): void } {
  if (!out.io.stderr.isTTY || out.json) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream: out.io.stderr, format: ' {mode} |{bar}| {percentage}% {speed}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const speed = p.speed ? `${p.speed.toFixed(1)}x` : '';
      const label = p.attempt > 1 ? `${p.mode} (try ${p.attempt})` : p.mode;
      if (!started) {
        bar.start(100, 0, { mode: label, speed });
        started = true;
      }
      bar.update(Math.round(p.percent ?? 0), { mode: label, speed });
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

export function registerMediaCommand(program: Command, deps: CliDeps): void {
  const media = program
    .command('media')
    .description('check media against the service limits, convert video to MP4');
  const saved = () => savedSettings(deps);

  toolOptions(
    media
      .command('check')
      .argument('<files...>', 'the files to check')
      .description(
        'what each file really is (from its bytes), its dimensions and duration, and every limit it breaks',
      )
      .option('--direct', 'check for a direct upload (MP4 only, at most 64 MiB)')
      .option('--post', 'the files are the media of one post: at most 10'),
  ).action(
    async (
      files: string[],
      opts: { direct?: boolean; post?: boolean; ffmpeg?: string; ffprobe?: string },
      cmd: Command,
    ) => {
      const out = deps.output(cmd);
      const result = await out.spin('checking', () =>
        checkFiles(files, {
          purpose: opts.direct ? 'direct-upload' : 'upload',
          probe: 'all',
          tools: toolsFrom(opts, saved),
          asOneOutput: opts.post === true,
        }),
      );
      out.result({ ok: result.ok, files: result.files.map(checkJson), problems: result.setProblems }, () => {
        const c = out.colors;
        for (const f of result.files) {
          out.line(
            `${f.ok ? c.green('✓') : c.red('✗')} ${basename(f.path)}: ${describeFile(f)}${f.contentType ? ` → ${f.contentType}` : ''}`,
          );
          for (const p of f.problems)
            out.line(
              `    ${p.severity === 'error' ? c.red('error') : c.yellow('warning')}: ${p.message}${cliHint(p, f.path)}`,
            );
        }
        for (const p of result.setProblems) out.line(`${c.red('✗')} ${p.message}`);
      });
      if (!result.ok) deps.setExitCode(EXIT.badInput);
    },
  );

  toolOptions(
    media
      .command('convert')
      .argument('<file>', 'a video: MOV, M4V, WebM, MKV, or an MP4 to compress')
      .description('turn a video into an H.264/AAC MP4 (index first); with --max-size, compress it to fit')
      .option('-o, --out <path>', 'the output file (default: <name>.mp4 beside the input)')
      .option('-f, --force', 'replace <name>.mp4 when it already exists')
      .option('--max-size <size>', 'the most the output may weigh, e.g. 64MiB (direct uploads) or 200MiB'),
  ).action(
    async (
      file: string,
      opts: { out?: string; force?: boolean; maxSize?: string; ffmpeg?: string; ffprobe?: string },
      cmd: Command,
    ) => {
      const out = deps.output(cmd);
      existingFile(file, 'file');
      // The default name may already be someone's file: never replace it unasked (an -o path is the user's choice).
      const target = resolve(opts.out ?? defaultOutputPath(file));
      const replacing = pathExistsSync(target);
      if (replacing && !opts.out && !opts.force) {
        throw new ValidationError(
          [
            {
              path: 'out',
              message: `${target} already exists: pass --force to replace it, or -o <path> to write another file`,
            },
          ],
          null,
          'argument',
        );
      }
      const maxBytes = opts.maxSize === undefined ? undefined : sizeOption('max-size', opts.maxSize);
      const bar = convertBar(out);
      const ac = new AbortController();
      // Ctrl-C stops ffmpeg and removes the partial output instead of leaving it behind.
      const onSigint = (): void => ac.abort(new Error('cancelled'));
      process.once('SIGINT', onSigint);
      try {
        const r = await convertToMp4(file, {
          out: opts.out,
          maxBytes,
          tools: toolsFrom(opts, saved),
          signal: ac.signal,
          onProgress: (p) => bar.update(p),
        }).catch((err: unknown) => {
          // Nothing the tool can do (no video, cannot fit the size): the input is the problem.
          if (err instanceof CannotConvertError)
            throw new ValidationError([{ path: 'file', message: err.message }], null, 'argument');
          throw err;
        });
        bar.stop();
        out.result(
          {
            input: r.input,
            output: r.output,
            bytes: r.bytes,
            mode: r.mode,
            attempts: r.attempts,
            video_bitrate: r.videoBitrate,
            replaced: replacing,
            probe: snakeCaseKeys(r.probe),
          },
          () => {
            const v = r.probe.video;
            out.line(
              `${out.colors.green('✓')} ${r.output}${replacing ? ' (replaced the file that was there)' : ''}: ${formatBytes(r.bytes)}, ${v ? `${v.displayWidth}×${v.displayHeight} ${v.codec}` : ''}${r.probe.audio ? ` + ${r.probe.audio.codec}` : ''}, ${r.mode}${r.attempts > 1 ? ` (${r.attempts} tries)` : ''}`,
            );
          },
        );
      } finally {
        bar.stop();
        process.off('SIGINT', onSigint);
      }
    },
  );
}
