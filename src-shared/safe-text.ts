/**
 * The one door for text that someone else chose (the service, an agent, the page, a file name) on its way to a
 * terminal line, a native dialog, a log line or a notification. What would act rather than show is shown
 * escaped instead, visibly: a terminal obeys ESC and CSI (cursor moves, erasing, OSC titles and hyperlinks), a
 * newline or a carriage return ends or restarts a line in all four, and bidi overrides reorder what is read
 * (`invoice\u202Egpj.exe` posing as a `.jpg`).
 */

/** The line and paragraph separators, and the bidi marks, embeddings, overrides and isolates. */
const REORDER_OR_BREAK = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029';

/** Those, and the C0 and C1 controls and DEL (`\p{Cc}`: ESC, CR, LF, BEL, the one-byte CSI 0x9b…). */
const UNSAFE = new RegExp(`[\\p{Cc}${REORDER_OR_BREAK}]`, 'gu');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\n`, `\x1b`, `\u202e`: what a person can read, and (inside `$'…'`) what bash reads back as the character. */
const escapeChar = (c: string): string => {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x80
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Whether the text holds a character that `safeLine` would show escaped. */
export function hasUnsafeText(text: string): boolean {
  return text.search(UNSAFE) !== -1;
}

/** The mark that ends a value cut short. */
export const CUT_MARK = '…';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text as a person sees it: a list of graphemes (an emoji with its modifiers and joiners is one). */
export function graphemesOf(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

export interface SafeLineOptions {
  /** At most this many characters shown (graphemes; an escape counts its own length), the mark included. */
  readonly max?: number;
}

/**
 * Text made safe for one line of a terminal, a dialog, a log or a notification: every control character, line
 * break and bidi control shown escaped (`\x1b`, `\n`, `\u202e`), and, past `max`, cut with `…` between two
 * graphemes (an emoji is never split). Escaping twice changes nothing: an escape is plain text.
 */
export function safeLine(text: string, o: SafeLineOptions = {}): string {
  const shown = text.replace(UNSAFE, escapeChar);
  const max = o.max;
  // Code units never undercount graphemes: a text this short needs no cut.
  if (max === undefined || shown.length <= max) return shown;
  const pieces = graphemesOf(text).map((g) => {
    const piece = g.replace(UNSAFE, escapeChar);
    return { piece, n: piece === g ? 1 : piece.length };
  });
  if (pieces.reduce((sum, p) => sum + p.n, 0) <= max) return shown;
  let out = '';
  let count = 0;
  for (const { piece, n } of pieces) {
    if (count + n > max - 1) break;
    out += piece;
    count += n;
  }
  return `${out}${CUT_MARK}`;
}

/** The same but for what may stay in text meant as several lines: its line feeds and tabs. */
const UNSAFE_IN_LINES = new RegExp(`[^\\P{Cc}\\n\\t]|[${REORDER_OR_BREAK}]`, 'gu');

/**
 * Text meant as several lines (a help page, a skill's markdown): the same escapes as `safeLine` but for the
 * line feeds and tabs, which stay; a CRLF ending becomes a plain line feed. Never for a value inside a line.
 */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_LINES, escapeChar);
}

/** Past C0 (which JSON escapes in strings, and whose line feeds lay out the document): the rest of UNSAFE. */
const UNSAFE_IN_JSON = new RegExp(`[\\x7f-\\x9f${REORDER_OR_BREAK}]`, 'gu');

/**
 * JSON text (from `JSON.stringify`, which escapes C0 itself) with the other characters `safeLine` escapes
 * written as `\uXXXX` too: still the same JSON, and safe to print.
 */
export function safeJsonText(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value on one line, spaces and line breaks folded into single spaces (a caption in a list), then cut. */
export function flatLine(text: string, max?: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return safeLine(flat, max === undefined ? {} : { max });
}

/**
 * A program or argument as a person confirms it: always in quotes, so where each word starts and ends is
 * plain; in bash's `$'…'` when it holds a character shown escaped, so the line still pastes into a shell and
 * runs exactly that.
 */
export function quotedWord(word: string): string {
  if (!hasUnsafeText(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  return `$'${word.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(UNSAFE, escapeChar)}'`;
}

/** A program and its arguments, each quoted: exactly what runs (without a shell), readable on one line. */
export function quotedCommand(argv: readonly string[]): string {
  return argv.map(quotedWord).join(' ');
}
