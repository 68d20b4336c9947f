import Table from 'cli-table3';
import type { Ora } from 'ora';
import { createColors } from 'picocolors';
import { redactDeep } from '../core/api/errors';

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type Colors = ReturnType<typeof createColors>;

/** Human or JSON output. Colours and spinners only on a TTY; with `--json` stdout holds exactly one document. */
export class Output {
  readonly colors: Colors;
  private readonly colorful: boolean;
  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {
    this.colorful = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !json;
    this.colors = createColors(this.colorful);
  }

  /** Prints the data as JSON, or runs the human printer. Secrets are scrubbed either way. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(redactDeep(data, 'data'), null, 2)}\n`);
    else human();
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Progress and notes: stderr, human mode only. */
  note(text: string): void {
    if (!this.json) this.io.stderr.write(`${text}\n`);
  }

  table(head: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): void {
    const t = new Table({
      head: head.map((h) => this.colors.bold(h)),
      style: { head: [], border: [], compact: true },
      wordWrap: true,
    });
    for (const r of rows) t.push(r.map((c) => (c === null || c === undefined ? '' : String(c))));
    this.line(t.toString());
  }

  /** Key/value lines, aligned. */
  fields(pairs: readonly (readonly [string, string | number | boolean | null | undefined])[]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) this.line(`${this.colors.dim(k.padEnd(width))}  ${v ?? '-'}`);
  }

  /** Loaded on first use: a pipe or `--json` never shows a spinner, and ora is a good part of a cold start. */
  async spinner(text: string): Promise<Ora> {
    const { default: ora } = await import('ora');
    return ora({
      text,
      stream: this.io.stderr,
      isEnabled: Boolean(this.io.stderr.isTTY) && !this.json,
      isSilent: this.json,
      discardStdin: false,
    });
  }

  /** Runs a slow step behind a spinner (shown only on a TTY). */
  async spin<T>(text: string, fn: () => Promise<T>): Promise<T> {
    if (!this.io.stderr.isTTY || this.json) return fn();
    const s = await this.spinner(text);
    if (s.isEnabled) s.start();
    try {
      const v = await fn();
      if (s.isEnabled) s.stop();
      return v;
    } catch (err) {
      if (s.isEnabled) s.stop();
      throw err;
    }
  }
}

export function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
