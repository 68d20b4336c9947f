/** The shell's log: one line per entry on stderr, with every registered secret scrubbed. */
import { redact } from '../core/api/errors';
import type { Logger } from './capabilities';

type Level = 'info' | 'warn' | 'error';

export function createConsoleLogger(
  write: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Logger {
  const line = (level: Level, message: string, fields?: Readonly<Record<string, unknown>>): void => {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    write(redact(`${new Date().toISOString()} ${level} ${message}${extra}`));
  };
  return {
    info: (m, f) => line('info', m, f),
    warn: (m, f) => line('warn', m, f),
    error: (m, f) => line('error', m, f),
  };
}
