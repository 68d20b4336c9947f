import { join } from 'node:path';
import { AppendFile, openNoFollow } from '../files';

export const LOG_STREAMS = ['stdout', 'stderr', 'system'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

export interface LogLine {
  readonly at: string;
  readonly stream: LogStream;
  readonly text: string;
}

/**
 * One line of a run's log file (`run.log` in its run directory): `<ISO time> <stream> <text>`. A text of several
 * lines (an agent's skip reason) stays one entry: its line breaks are shown, not written.
 */
export function formatLogLine(stream: LogStream, text: string, at = new Date()): string {
  return `${at.toISOString()} ${stream} ${text.replace(/\r\n|\r|\n/g, ' ⏎ ')}\n`;
}

/** Where a run's lines go: the executor's own, and its agent's stdout and stderr. */
export interface RunLogWriter {
  append(stream: LogStream, text: string, at?: Date): void;
}

/** The name of a run's log in its run directory. */
export const RUN_LOG = 'run.log';

/**
 * A run's `run.log`, opened once by descriptor (no link followed, no hard link taken, its folder a real folder
 * of the runs folder) before the agent can touch its folder: a link the agent later plants at the name takes
 * none of the executor's lines.
 */
export class RunLog implements RunLogWriter {
  private constructor(private readonly file: AppendFile) {}

  static open(runsDir: string, runDir: string): RunLog {
    return new RunLog(AppendFile.openSync(join(runDir, RUN_LOG), { root: runsDir }));
  }

  append(stream: LogStream, text: string, at = new Date()): void {
    this.file.write(formatLogLine(stream, text, at));
  }

  close(): void {
    this.file.close();
  }
}

const LINE_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (stdout|stderr|system) (.*)$/;

export function parseLogLine(line: string): LogLine | null {
  const m = LINE_RE.exec(line);
  return m ? { at: m[1] as string, stream: m[2] as LogStream, text: m[3] as string } : null;
}

/** The last `tail` lines of a run log (read from the end, so a huge log costs little). */
export async function readRunLog(file: string, tail = 200): Promise<LogLine[]> {
  // The agent may have replaced its run's log with a link: that is no log of the run's.
  const fh = await openNoFollow(file, 'read').catch(() => null);
  if (!fh) return [];
  try {
    const { size } = await fh.stat();
    const want = Math.min(size, Math.max(4096, tail * 400));
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
