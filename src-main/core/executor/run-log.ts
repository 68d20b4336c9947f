import { open, stat } from 'node:fs/promises';

export const LOG_STREAMS = ['stdout', 'stderr', 'system'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

export interface LogLine {
  readonly at: string;
  readonly stream: LogStream;
  readonly text: string;
}

/** One line of a run's log file (`run.log` in its run directory): `<ISO time> <stream> <text>`. */
export function formatLogLine(stream: LogStream, text: string, at = new Date()): string {
  return `${at.toISOString()} ${stream} ${text}\n`;
}

const LINE_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (stdout|stderr|system) (.*)$/;

export function parseLogLine(line: string): LogLine | null {
  const m = LINE_RE.exec(line);
  return m ? { at: m[1] as string, stream: m[2] as LogStream, text: m[3] as string } : null;
}

/** The last `tail` lines of a run log (read from the end, so a huge log costs little). */
export async function readRunLog(file: string, tail = 200): Promise<LogLine[]> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return [];
  }
  const want = Math.min(size, Math.max(4096, tail * 400));
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(want);
    await fh.read(buf, 0, want, size - want);
    const lines = buf.toString('utf8').split('\n');
    if (want < size) lines.shift();
    return lines
      .map(parseLogLine)
      .filter((l): l is LogLine => l !== null)
      .slice(-tail);
  } finally {
    await fh.close();
  }
}
