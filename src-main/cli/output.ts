import { randomBytes } from 'node:crypto';
import Table from 'cli-table3';
import type { Ora } from 'ora';
import { createColors } from 'picocolors';
import { redactDeep } from '../core/api/errors';
import { redactForDisplay } from '../core/api/redact';
import { flatLine, safeJsonText, safeLine, safeText } from '../../src-shared/safe-text';
import { displayWidth, fitColumns, wrapCell } from './table-layout';

export interface CliIo {
  /** `columns`: the terminal's width, when stdout is one. */
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type Colors = ReturnType<typeof createColors>;

/**
 * What every human-readable line goes through: credentials redacted, control characters and bidi controls
 * shown escaped (src-shared/safe-text.ts); the line feeds of text meant as several lines stay.
 */
export function scrubForTerminal(text: string): string {
  return safeText(redactForDisplay(text));
}

/** The same for a value inside one line (a table cell, a field): its line breaks are shown as `\n` too. */
export function scrubLine(text: string): string {
  return safeLine(redactForDisplay(text));
}

/**
 * Our own colours must still reach the terminal: the colour functions mark their escape bytes with this
 * per-process token, which data cannot guess, and the writer turns only the marked ones back into ESC.
 */
const OWN_ESC = `\u{e000}${randomBytes(8).toString('hex')}\u{e001}`;
const unmark = (text: string): string => text.split(OWN_ESC).join('\x1b');

function markedColors(enabled: boolean): Colors {
  const plain = createColors(enabled);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plain)) {
    out[name] =
      typeof value === 'function'
        ? (input: unknown) =>
            (value as (s: string) => string)(scrubForTerminal(String(input)))
              .split('\x1b')
              .join(OWN_ESC)
        : value;
  }
  return out as unknown as Colors;
}

/** Human or JSON output. Colours and spinners only on a TTY; with `--json` stdout holds exactly one document. */
export class Output {
  readonly colors: Colors;
  private readonly colorful: boolean;
  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {
    this.colorful = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !json;
    this.colors = markedColors(this.colorful);
  }

  /** Text ready for the terminal: scrubbed, with only our own colours left as escape sequences. */
  text(value: string): string {
    return unmark(scrubForTerminal(value));
  }

  /** Prints the data as JSON, or runs the human printer. Secrets are scrubbed either way. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.json1(data);
    else human();
  }

  /** One JSON document on stdout, scrubbed of credentials (for `--json`, errors included). */
  json1(data: unknown): void {
    this.io.stdout.write(`${safeJsonText(JSON.stringify(redactDeep(data, 'data'), null, 2))}\n`);
  }

  line(text = ''): void {
    this.io.stdout.write(`${this.text(text)}\n`);
  }

  /** Progress and notes: stderr, human mode only. */
  note(text: string): void {
    if (!this.json) this.io.stderr.write(`${this.text(text)}\n`);
  }

  /** A line on stderr in either mode (errors, a pause). */
  warn(text: string): void {
    this.io.stderr.write(`${this.text(text)}\n`);
  }

  /**
   * The width tables fit: the terminal's, else `COLUMNS` (a pipe into a pager that set it), else none (a pipe
   * into a file or another program gets whole lines).
   */
  width(): number | undefined {
    const tty = this.io.stdout.isTTY ? this.io.stdout.columns : undefined;
    if (tty !== undefined && tty > 0) return tty;
    const env = Number(this.io.env.COLUMNS);
    return Number.isInteger(env) && env > 0 ? env : undefined;
  }

  /**
   * A table that fits `width()`: columns of prose wrap first, then the widest give way (table-layout.ts);
   * cells wrap at spaces, else between graphemes. Each cell is made safe on its own (one line: a newline
   * in it shows as `\n`), so the layout measures what the terminal will show.
   */
  table(head: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): void {
    const header = head.map((h) => this.text(this.colors.bold(h)));
    const cells = rows.map((r) =>
      r.map((c) => (c === null || c === undefined ? '' : unmark(scrubLine(String(c))))),
    );
    const natural = header.map((h, i) =>
      Math.max(displayWidth(h), ...cells.map((r) => displayWidth(r[i] ?? ''))),
    );
    const prose = header.map((_h, i) => cells.some((r) => (r[i] ?? '').includes(' ')));
    const widths = fitColumns(natural, this.width(), prose);
    const shownHead = header.map((h, i) => wrapCell(h, widths[i] ?? 1));
    const body = cells.map((r) => header.map((_h, i) => wrapCell(r[i] ?? '', widths[i] ?? 1)));
    const t = new Table({
      head: shownHead,
      // cli-table3's widths hold the padding; the cells come wrapped, so it never has to cut one.
      colWidths: widths.map((w) => w + 2),
      // A row of several lines needs the rule between rows to be told from the next.
      style: { head: [], border: [], compact: !body.some((r) => r.some((c) => c.includes('\n'))) },
    });
    t.push(...body);
    this.io.stdout.write(`${t.toString()}\n`);
  }

  /** Key/value lines, aligned. */
  fields(pairs: readonly (readonly [string, string | number | boolean | null | undefined])[]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs)
      this.line(`${this.colors.dim(k.padEnd(width))}  ${scrubLine(String(v ?? '-'))}`);
  }

  /** Loaded on first use: a pipe or `--json` never shows a spinner, and ora is a good part of a cold start. */
  async spinner(text: string): Promise<Ora> {
    const { default: ora } = await import('ora');
    return ora({
      text: this.text(text),
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

/**
 * A caption or message shortened for a list: on one line (spaces and line breaks folded), at most `max`
 * characters with the `…` mark, cut between graphemes so an emoji is never split into `\ufffd`.
 */
export function truncate(text: string, max: number): string {
  return flatLine(text, max);
}
