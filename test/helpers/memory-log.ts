import type { LogFields, Logger, LogLevel } from '../../src-main/core/common/logger';

export type LogEntry = Readonly<{ level: LogLevel; message: string; fields?: LogFields | undefined }>;

/** A `Logger` that keeps its entries, so a test can show a failure left a trace (and no secret in it). */
export class MemoryLog implements Logger {
  readonly entries: LogEntry[] = [];
  debug(message: string, fields?: LogFields): void {
    this.entries.push({ level: 'debug', message, fields });
  }
  info(message: string, fields?: LogFields): void {
    this.entries.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.entries.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.entries.push({ level: 'error', message, fields });
  }
  /** The entries at `level` and above, as `message` strings. */
  messages(level: LogLevel = 'debug'): string[] {
    const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
    return this.entries.filter((e) => order.indexOf(e.level) >= order.indexOf(level)).map((e) => e.message);
  }
  text(): string {
    return JSON.stringify(this.entries);
  }
}
