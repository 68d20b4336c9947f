import { basename } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { LIMITS } from '../../../src-shared/api/limits';
import { ValidationError } from '../../core/api/errors';
import { parseSize } from '../../core/media/size';
import { formatBytes } from '../../../src-shared/format-bytes';
import { createSettingsTools, toolSettingsOf } from '../../core/media/tools';
import type { Settings } from '../../../src-shared/settings';
import type { Tools } from '../../core/media/tools';
import { createUploader } from '../../core/media/upload';
import type { UploadErrorKind, UploadEvent, UploadOutcome } from '../../core/media/upload';
import type { Core } from '../../core/services';
import { positiveInt } from '../args';
import type { CliDeps } from '../context';
import { EXIT, inUserWords } from '../exit-codes';
import type { ExitCode } from '../exit-codes';
import { truncate, type Output } from '../output';

/** The exit code an upload failure maps to: a file problem is bad input, a refusal is the service, and so on. */
export function exitCodeForUpload(kind: UploadErrorKind): ExitCode {
  switch (kind) {
    case 'check':
      return EXIT.badInput;
    case 'network':
      return EXIT.network;
    case 'quota':
    case 'conflict':
    case 'rejected':
    case 'service':
      return EXIT.service;
    default:
      return EXIT.other;
  }
}

/** Which service the local upload and bulk records belong to: the in-process sandbox changes port every run. */
export const recordScope = (core: Core): string => (core.endpoint.sandbox ? 'sandbox' : core.client.baseUrl);

/**
 * ffmpeg/ffprobe: `--ffmpeg`/`--ffprobe`, then POSTDESK_FFMPEG_PATH/POSTDESK_FFPROBE_PATH, then the saved
 * `ffmpegPath`/`ffprobePath` settings (read only when a tool is needed), then the bundled binaries and PATH.
 */
/** A size option (`2M`, `500K`) in bytes; a bad one is refused naming its flag. */
export function sizeOption(flag: string, value: string): number {
  try {
    return parseSize(value);
  } catch (err) {
    throw new ValidationError([{ path: flag, message: (err as Error).message }], null, 'argument');
  }
}

/** The saved ffmpeg/ffprobe paths; without a usable data directory, none are saved. */
export function savedSettings(deps: CliDeps): Readonly<Settings> | null {
  try {
    return deps.local().settings.get();
  } catch {
    return null;
  }
}

export function toolsFrom(
  opts: { ffmpeg?: string; ffprobe?: string },
  saved: () => Readonly<Settings> | null,
): Tools {
  return createSettingsTools(() => {
    const s = opts.ffmpeg && opts.ffprobe ? null : toolSettingsOf(saved(), process.env);
    return { ffmpegPath: opts.ffmpeg ?? s?.ffmpegPath, ffprobePath: opts.ffprobe ?? s?.ffprobePath };
  }, process.env);
}

export function toolOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--ffmpeg <path>', 'the ffmpeg binary (else $POSTDESK_FFMPEG_PATH, the npm one, PATH)'),
    )
    .addOption(
      new Option('--ffprobe <path>', 'the ffprobe binary (else $POSTDESK_FFPROBE_PATH, the npm one, PATH)'),
    );
}

/**
 * One progress bar per file on a TTY (hashing, then uploading), nothing otherwise: progress goes to stderr so
 * stdout stays clean for the summary or JSON.
 */
export function uploadBars(out: Output): { onEvent(e: UploadEvent): void; stop(): void } {
  const stream = out.io.stderr;
  if (!stream.isTTY || out.json) return { onEvent: () => undefined, stop: () => undefined };
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: ' {name} |{bar}| {percentage}% {phase} {size}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  const bar = (file: string): cliProgress.SingleBar => {
    let b = bars.get(file);
    if (!b) {
      const name = basename(file);
      b = multi.create(1, 0, {
        // A file name is text someone chose: made safe and cut between graphemes (output.ts).
        name: truncate(name, 24).padEnd(24),
        phase: 'queued',
        size: '',
      });
      bars.set(file, b);
    }
    return b;
  };
  /** `done` of `total` bytes through a phase (hashing, uploading, done), the size beside the bar. */
  const through = (file: string, phase: string, done: number, total: number): void => {
    const b = bar(file);
    b.setTotal(total);
    b.update(done, { phase, size: formatBytes(total) });
  };
  return {
    onEvent(e) {
      switch (e.type) {
        case 'queued':
          bar(e.file);
          break;
        case 'hashing':
          through(e.file, 'hashing', e.bytes, e.total);
          break;
        case 'reserved':
          bar(e.file).update(0, { phase: e.alreadyUploaded ? 'already there' : 'reserved' });
          break;
        case 'progress':
          through(e.file, 'uploading', e.sent, e.total);
          break;
        case 'retry':
          bar(e.file).update({ phase: 'retrying' });
          break;
        case 'completed': {
          // A full bar even for an empty file; the size stays as the last phase showed it.
          const b = bar(e.file);
          b.setTotal(Math.max(1, e.result.bytes));
          b.update(Math.max(1, e.result.bytes), {
            phase: e.result.alreadyUploaded ? 'already there' : 'done',
          });
          break;
        }
        case 'failed':
          bar(e.file).update({ phase: 'failed' });
          break;
        default:
          break;
      }
    },
    stop: () => multi.stop(),
  };
}

export function outcomeJson(o: UploadOutcome): Record<string, unknown> {
  if (o.ok) {
    const r = o.result;
    return {
      file: o.file,
      asset_id: r.assetId,
      public_url: r.asset.public_url,
      mime_type: r.asset.mime_type,
      bytes: r.bytes,
      sha256: r.sha256,
      already_uploaded: r.alreadyUploaded,
    };
  }
  return { file: o.file, error: o.error.toJSON() };
}

interface UploadOpts {
  concurrency: number;
  limitRate?: string;
  ffmpeg?: string;
  ffprobe?: string;
}

export function registerUploadCommand(program: Command, deps: CliDeps): void {
  toolOptions(
    program
      .command('upload')
      .argument('[files...]', 'images (JPEG, PNG, WebP) or MP4 videos')
      .description(
        'check, hash and upload media to managed storage; prints each asset id. Uploads a crash interrupted are finished first; with no files, only those',
      )
      .option(
        '--concurrency <n>',
        `files at once (1 to ${LIMITS.mediaPendingUploads})`,
        positiveInt('--concurrency', LIMITS.mediaPendingUploads),
        3,
      )
      .option('--limit-rate <bytes/s>', 'cap the upload bandwidth, e.g. 2M or 500K (like curl)'),
  ).action(async (files: string[], opts: UploadOpts, cmd: Command) => {
    const out = deps.output(cmd);
    const rate = opts.limitRate === undefined ? undefined : sizeOption('limit-rate', opts.limitRate);
    const core = await deps.core(cmd);
    const bars = uploadBars(out);
    const uploader = createUploader({
      api: core.client,
      store: core.store,
      scope: recordScope(core),
      tools: toolsFrom(opts, () => core.settings.get()),
      concurrency: opts.concurrency,
      maxBytesPerSecond: rate,
      onEvent: bars.onEvent,
    });
    let outcomes: UploadOutcome[];
    let resumed: UploadOutcome[];
    try {
      resumed = await uploader.resumeUploads();
      outcomes = await uploader.uploadMany(files);
    } finally {
      bars.stop();
    }
    if (files.length === 0 && resumed.length === 0) {
      throw new ValidationError(
        [{ path: 'files', message: 'name at least one file to upload' }],
        null,
        'argument',
      );
    }
    const all = [...resumed, ...outcomes];
    // A sandbox this command started serves the public URLs only until the command exits, on a port the next one
    // will not get: say so rather than hand out addresses that are dead a moment later.
    const temporary = core.endpoint.sandbox !== null && !core.endpoint.sandbox.reused;
    if (out.json) {
      // One asset (or failure) per line, so a script can stream it.
      for (const o of all) {
        out.line(
          JSON.stringify({ ...outcomeJson(o), ...(o.ok && temporary ? { public_url_temporary: true } : {}) }),
        );
      }
    } else {
      const c = out.colors;
      if (resumed.length)
        out.note(`finished ${resumed.filter((r) => r.ok).length} of ${resumed.length} interrupted upload(s)`);
      out.table(
        ['file', 'asset id', 'type', 'size', 'result'],
        all.map((o) =>
          o.ok
            ? [
                basename(o.file),
                o.result.assetId,
                o.result.contentType,
                formatBytes(o.result.bytes),
                o.result.alreadyUploaded ? c.dim('already uploaded') : c.green('uploaded'),
              ]
            : [basename(o.file), o.error.assetId ?? '', '', '', c.red(inUserWords(o.error.message))],
        ),
      );
      const ok = all.filter((o) => o.ok).length;
      out.line(
        `${ok} of ${all.length} file(s) uploaded${ok < all.length ? `, ${all.length - ok} failed` : ''}`,
      );
      if (ok && temporary) {
        out.note(
          'the public URLs are temporary: they point at the sandbox this command started, which stops when it exits. ' +
            'The media stays in the sandbox: refer to it by asset id (posts create --media <asset_id>).',
        );
      }
    }
    const firstFailure = all.find((o) => !o.ok);
    if (firstFailure && !firstFailure.ok) deps.setExitCode(exitCodeForUpload(firstFailure.error.kind));
  });
}
