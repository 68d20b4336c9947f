import { randomBytes } from 'node:crypto';
import Table from 'cli-table3';
import type { Ora } from 'ora';
import { createColors } from 'picocolors';
import { redactDeep } from '../core/api/errors';
import { redactForDisplay } from '../core/api/redact';

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type Colors = ReturnType<typeof createColors>;

/**
 * Bytes a terminal acts on rather than shows: C0 controls but line feed and tab, DEL, C1 controls
 * (0x9b is a one-byte CSI), and the bidirectional overrides that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escapeChar = (c: string): string => {
  if (c === '\r') return '\\r';
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Control characters shown as `\x1b`, `\r`… so that text from the service cannot drive the terminal. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** What every human-readable line goes through: credentials redacted, control characters shown escaped. */
export function scrubForTerminal(text: string): string {
  return escapeControls(redactForDisplay(text));
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

/** JSON escapes C0 controls itself; C1 controls and bidi overrides become `\uXXXX` too (still valid JSON). */
const JSON_UNSAFE = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const jsonForTerminal = (text: string): string =>
  text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

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
    this.io.stdout.write(`${jsonForTerminal(JSON.stringify(redactDeep(data, 'data'), null, 2))}\n`);
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

  table(head: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): void {
    // Each cell is made safe on its own, so the table measures what the terminal will show.
    const t = new Table({
      head: head.map((h) => this.text(this.colors.bold(h))),
      style: { head: [], border: [], compact: true },
      wordWrap: true,
    });
    for (const r of rows) t.push(r.map((c) => (c === null || c === undefined ? '' : this.text(String(c)))));
    this.io.stdout.write(`${t.toString()}\n`);
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

export function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
