import { safeLine } from '../../../src-shared/safe-text';
import { redact } from '../api/redact';

export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where core reports what it caught and did not rethrow. Injected, like every other dependency, so that a failure
 * dropped on purpose still leaves a trace: the app writes it to a rotating file, the CLI to stderr at --verbose.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogLevel = keyof Logger;
const ORDER: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** For tests and callers that have nowhere to write. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * One line per entry, from `level` up, every credential scrubbed (the line may quote an error that echoes a
 * key) and made safe: a message or field that holds a line break or an escape sequence cannot forge another
 * entry nor drive the terminal that shows the log (src-shared/safe-text.ts).
 */
export function createLineLogger(
  write: (line: string) => void,
  level: LogLevel = 'info',
  now: () => Date = () => new Date(),
): Logger {
  const line = (at: LogLevel, message: string, fields?: LogFields): void => {
    if (ORDER[at] < ORDER[level]) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : '';
    write(safeLine(redact(`${now().toISOString()} ${at} ${message}${extra}`)));
  };
  return {
    debug: (m, f) => line('debug', m, f),
    info: (m, f) => line('info', m, f),
    warn: (m, f) => line('warn', m, f),
    error: (m, f) => line('error', m, f),
  };
}

function safeJson(fields: LogFields): string {
  try {
    return JSON.stringify(fields, (_k, v: unknown) =>
      v instanceof Error ? { name: v.name, message: v.message } : v,
    );
  } catch {
    return '{"fields":"unserializable"}';
  }
}
