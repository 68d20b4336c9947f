/**
 * A log file that rotates by size: `postdesk.log` grows to `maxBytes`, then becomes `postdesk.log.1` (the older
 * ones moving up to `.keep`, the oldest dropped) and a fresh file starts. Private like everything Postdesk writes:
 * the folder 0700, each file 0600. Writes are synchronous, as electron-log's are: a line logged just before a
 * crash is on disk, and the log is small.
 */
import { dirname } from 'node:path';
import { AppendFile, ensurePrivateDirSync, removePathSync, renamePathSync } from './files';
import { safeLine } from '../../src-shared/safe-text';

export interface RotatingFileOptions {
  readonly file: string;
  /** The size past which the file is rotated (default 1 MiB). */
  readonly maxBytes?: number;
  /** How many rotated files are kept beside the current one (default 3). */
  readonly keep?: number;
  /** Told when the file stops taking lines (a full disk, a folder made unwritable), once until one goes in again. */
  readonly onError?: (error: unknown) => void;
}

export interface RotatingFile {
  readonly file: string;
  /** Appends one line (a newline is added; one inside is shown as `\n`, src-shared/safe-text.ts); never throws. */
  write(line: string): void;
  close(): void;
}

export function openRotatingFile(o: RotatingFileOptions): RotatingFile {
  const maxBytes = Math.max(1, o.maxBytes ?? 1024 * 1024);
  const keep = Math.max(0, Math.floor(o.keep ?? 3));
  let fd: AppendFile | null = null;
  let size = 0;
  let reported = false;

  const open = (): AppendFile => {
    ensurePrivateDirSync(dirname(o.file));
    // Opened without following a link; a file left looser by an older version is tightened first.
    const handle = AppendFile.openSync(o.file);
    size = handle.size;
    return handle;
  };

  const close = (): void => {
    fd?.close();
    fd = null;
  };

  const rotate = (): void => {
    close();
    if (keep === 0) return void removePathSync(o.file);
    // A rename replaces its target: the oldest kept file is overwritten by the next older one.
    for (let i = keep - 1; i >= 1; i--) moveIfThere(`${o.file}.${i}`, `${o.file}.${i + 1}`);
    moveIfThere(o.file, `${o.file}.1`);
  };

  return {
    file: o.file,
    write(line) {
      const data = `${safeLine(line.replace(/\n+$/, ''))}\n`;
      const bytes = Buffer.byteLength(data);
      try {
        fd ??= open();
        if (size > 0 && size + bytes > maxBytes) {
          rotate();
          fd = open();
        }
        fd.write(data);
        size += bytes;
        reported = false;
      } catch (error) {
        close();
        if (!reported) o.onError?.(error);
        reported = true;
      }
    },
    close,
  };
}

function moveIfThere(from: string, to: string): void {
  try {
    renamePathSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
