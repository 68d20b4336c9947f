/**
 * The desktop app's log: one line per entry with every credential scrubbed, to a rotating file in its data
 * folder (`logs/postdesk.log`, 0600 in 0700 folders) and to stderr, where a terminal that started it sees it too.
 */
import { errorText } from '../core/common/error-text';
import { createLineLogger, type Logger, type LogLevel } from '../core/common/logger';
import { openRotatingFile } from '../core/log-file';
import { appLogFile } from '../core/paths';
import { safeLine } from '../../src-shared/safe-text';

export interface AppLog extends Logger {
  /** The current log file (Settings and the tray's "Open logs folder" point at it). */
  readonly file: string;
  close(): void;
}

export function createAppLog(
  dataDir: string,
  opts: Readonly<{
    stderr?: (line: string) => void;
    level?: LogLevel;
    maxBytes?: number;
    keep?: number;
  }> = {},
): AppLog {
  const stderr = opts.stderr ?? ((l: string) => void process.stderr.write(`${l}\n`));
  const file = openRotatingFile({
    file: appLogFile(dataDir),
    maxBytes: opts.maxBytes ?? 1024 * 1024,
    keep: opts.keep ?? 3,
    onError: (error) =>
      stderr(safeLine(`the log file ${appLogFile(dataDir)} cannot be written: ${errorText(error)}`)),
  });
  // Each line comes safe from the line logger (src-shared/safe-text.ts): one line, nothing a terminal obeys.
  const logger = createLineLogger((line) => {
    file.write(line);
    stderr(line);
  }, opts.level ?? 'info');
  return { ...logger, file: file.file, close: () => file.close() };
}
