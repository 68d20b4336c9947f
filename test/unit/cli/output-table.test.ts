import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output, truncate, type CliIo } from '../../../src-main/cli/output';
import { displayWidth, fitColumns, wrapCell } from '../../../src-main/cli/table-layout';

/** An Output writing to a stream that says it is a terminal `columns` wide (or a pipe, without). */
function outputOf(o: { columns?: number; env?: Record<string, string> } = {}) {
  let text = '';
  const stdout = Object.assign(new PassThrough(), {
    isTTY: o.columns !== undefined,
    columns: o.columns,
  });
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  const io: CliIo = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { NO_COLOR: '1', ...o.env },
  };
  return { out: new Output(io, false), text: () => text };
}

const ID_A = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ID_B = '16fd2706-8baf-433b-82eb-8c7fada847da';
const CAPTION = 'Our spring collection is here 🌸👩‍👩‍👧 with new colours, sizes and a few surprises for you';
const HEAD = ['id', 'post', 'platform', 'status', 'scheduled', 'caption'];
const ROWS = [
  [ID_A, ID_B, 'instagram', 'scheduled', '2026-11-27T09:30:00.000Z', truncate(CAPTION, 40)],
  [ID_B, ID_A, 'tiktok', 'posted', '2026-11-26T18:00:00.000Z', truncate('short one', 40)],
];

describe('tables fit the terminal', () => {
  it('a 165-column table fits a 100-column pane, every line, with nothing lost', () => {
    const wide = outputOf();
    wide.out.table(HEAD, ROWS);
    expect(Math.max(...wide.text().trimEnd().split('\n').map(displayWidth))).toBeGreaterThan(150);

    const t = outputOf({ columns: 100 });
    t.out.table(HEAD, ROWS);
    const lines = t.text().trimEnd().split('\n');
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(100);
    // Each id can still be read whole down its (wrapped) column.
    const column = (i: number): string =>
      lines
        .filter((l) => l.startsWith('│'))
        .map((l) => (l.split('│')[i + 1] ?? '').trim())
        .join('');
    expect(column(0)).toContain(`${ID_A}${ID_B}`);
    expect(column(1)).toContain(`${ID_B}${ID_A}`);
    expect(t.text()).not.toContain('\ufffd');
    expect(t.text()).toContain('🌸');
  });

  it('prose gives way before ids and times, which stay whole while they can', () => {
    const widths = fitColumns([36, 9, 24, 40], 100, [false, false, false, true]);
    expect(widths.slice(0, 3)).toEqual([36, 9, 24]);
    expect(widths[3]).toBe(100 - 13 - 36 - 9 - 24);
  });

  it('reads COLUMNS when stdout is not a terminal, and leaves a plain pipe whole', () => {
    const paged = outputOf({ env: { COLUMNS: '80' } });
    paged.out.table(HEAD, ROWS);
    for (const l of paged.text().trimEnd().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(outputOf().out.width()).toBeUndefined();
  });

  it('a cell holding a newline or an escape stays one line of its row, shown escaped', () => {
    const t = outputOf({ columns: 200 });
    t.out.table(['name', 'note'], [['Daily\n\x1b[1A\x1b[2Kfake', 'ok']]);
    const body = t.text().trimEnd().split('\n');
    // top border, head, separator, the row, bottom border
    expect(body).toHaveLength(5);
    expect(body[3]).toContain('Daily\\n\\x1b[1A\\x1b[2Kfake');
  });

  it('wraps a long word between graphemes, never inside an emoji', () => {
    const cell = wrapCell('👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧abc', 5);
    expect(
      cell
        .split('\n')
        .map(displayWidth)
        .every((w) => w <= 5),
    ).toBe(true);
    expect(cell.replace(/\n/g, '')).toBe('👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧abc');
  });
});

describe('shortened captions', () => {
  it('are cut between graphemes with the mark: an emoji is never split into \ufffd', () => {
    const cut = truncate('Spring 🌸🌸 sale 👩‍👩‍👧 today', 16);
    expect(cut).toBe('Spring 🌸🌸 sale …');
    const onEmoji = truncate('Spring sale 👩‍👩‍👧👩‍👩‍👧 today', 14);
    expect(onEmoji).toBe('Spring sale 👩‍👩‍👧…');
    expect(Buffer.from(onEmoji, 'utf8').toString('utf8')).toBe(onEmoji);
    // No lone surrogate: every code unit pair is whole.
    expect(onEmoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});
