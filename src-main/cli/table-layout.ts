import { graphemesOf } from '../../src-shared/safe-text';

/**
 * How a table fits the terminal: each column's width, widest first to give way, and each cell wrapped (on
 * spaces, else between graphemes) to its column. Cells arrive already safe: the only escapes left are our own
 * colours, which take no room.
 */

/** Our own colour codes (SGR): the only escape sequences a safe cell still holds. */
// eslint-disable-next-line no-control-regex -- our colour codes are what must be told apart from text
const SGR = /\x1b\[[0-9;]*m/g;

/** Wide: East Asian wide and fullwidth forms, and emoji (pictographs, flags, keycaps, variation selector 16). */
const WIDE =
  /[\p{Extended_Pictographic}\p{Regional_Indicator}\u{fe0f}\u{20e3}\u{1100}-\u{115f}\u{2e80}-\u{303e}\u{3041}-\u{33ff}\u{3400}-\u{4dbf}\u{4e00}-\u{9fff}\u{a000}-\u{a4cf}\u{ac00}-\u{d7a3}\u{f900}-\u{faff}\u{fe30}-\u{fe4f}\u{ff00}-\u{ff60}\u{ffe0}-\u{ffe6}\u{20000}-\u{3fffd}]/u;

/** Columns a grapheme takes: never fewer than the table's own measure, so it never has to cut a cell. */
const graphemeWidth = (g: string): number => (WIDE.test(g) ? 2 : 1);

/** The columns a cell's widest line takes on screen. */
export function displayWidth(text: string): number {
  let widest = 0;
  for (const line of text.replace(SGR, '').split('\n')) {
    let w = 0;
    for (const g of graphemesOf(line)) w += graphemeWidth(g);
    widest = Math.max(widest, w);
  }
  return widest;
}

/** A table's frame around its cells: a border before each column and after the last, one space each side. */
export const frameWidth = (columns: number): number => columns * 3 + 1;

/** No column is made narrower than this (or its content, when that is narrower). */
const MIN_COLUMN = 8;
/** Nor a column of prose (captions, reasons), which gives way first, narrower than this. */
const MIN_PROSE = 16;

/**
 * Column widths (content only) that fit `available` terminal columns, in this order: the columns of prose
 * (any cell with a space: a caption, a reason) wrap first, down to `MIN_PROSE`; then the widest of all give
 * way, each down to the same share, so ids and times stay whole as long as they can. When even the minimums
 * cannot fit, the table runs past the edge rather than hide data.
 */
export function fitColumns(
  natural: readonly number[],
  available: number | undefined,
  prose: readonly boolean[] = [],
): number[] {
  const widths = natural.map((w) => Math.max(1, w));
  if (available === undefined) return widths;
  const room = available - frameWidth(widths.length);
  const sum = (ws: readonly number[]): number => ws.reduce((a, b) => a + b, 0);
  if (sum(widths) <= room) return widths;
  const proseCols = widths.flatMap((_w, i) => (prose[i] ? [i] : []));
  const fixed = sum(widths.filter((_w, i) => !prose[i]));
  const first = share(widths, proseCols, room - fixed, MIN_PROSE);
  if (sum(first) <= room) return first;
  return share(
    first,
    widths.map((_w, i) => i),
    room,
    MIN_COLUMN,
  );
}

/**
 * Water-filling over the columns `cols` of `widths`, which have `room` between them: those under the fair
 * share keep their width, the rest split what is left, none below `min` (or its own width, when narrower).
 */
function share(widths: readonly number[], cols: readonly number[], room: number, min: number): number[] {
  const out = [...widths];
  let left = room;
  const order = [...cols].sort((a, b) => (widths[a] as number) - (widths[b] as number));
  let count = order.length;
  for (const i of order) {
    const w = widths[i] as number;
    const fair = Math.floor(left / count);
    const given = w <= fair ? w : Math.max(Math.min(w, min), fair);
    out[i] = given;
    left -= given;
    count -= 1;
  }
  return out;
}

/** A cell's lines within `width` columns: broken at spaces, and a word longer than the column between graphemes. */
export function wrapCell(text: string, width: number): string {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    const push = (): void => {
      lines.push(line);
      line = '';
      lineWidth = 0;
    };
    for (const word of paragraph.split(' ')) {
      const w = displayWidth(word);
      if (lineWidth > 0 && lineWidth + 1 + w <= width) {
        line += ` ${word}`;
        lineWidth += 1 + w;
        continue;
      }
      if (lineWidth > 0) push();
      if (w <= width) {
        line = word;
        lineWidth = w;
        continue;
      }
      for (const atom of atomsOf(word)) {
        const aw = atom.startsWith('\x1b') ? 0 : graphemeWidth(atom);
        if (lineWidth + aw > width && lineWidth > 0) push();
        line += atom;
        lineWidth += aw;
      }
    }
    push();
  }
  return lines.join('\n');
}

/** A word as graphemes, with each colour code kept whole (it takes no room). */
function atomsOf(word: string): string[] {
  const atoms: string[] = [];
  let at = 0;
  for (const m of word.matchAll(SGR)) {
    atoms.push(...graphemesOf(word.slice(at, m.index)), m[0]);
    at = m.index + m[0].length;
  }
  atoms.push(...graphemesOf(word.slice(at)));
  return atoms;
}
