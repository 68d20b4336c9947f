import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { escapeFormula, unescapeFormula } from '../../../../src-main/core/bulk/formula-cells';
import { localTime } from '../../../../src-main/core/export/local-time';
import { writeExport } from '../../../../src-main/core/export/write-export';

const collect = () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  return { out, text: () => text };
};

describe('formula cells', () => {
  const cases = [
    '=1+1',
    '+49 30 1234',
    '-5 degrees',
    '@channel',
    '\t=x',
    "'=already",
    "''-x",
    'plain',
    "'quoted",
    '',
  ];
  it('guards every cell a spreadsheet would run, and nothing else', () => {
    expect(escapeFormula('=1+1')).toBe("'=1+1");
    expect(escapeFormula('@channel')).toBe("'@channel");
    expect(escapeFormula('plain')).toBe('plain');
    expect(escapeFormula("'quoted")).toBe("'quoted");
    expect(escapeFormula("'=already")).toBe("''=already");
  });
  it('reads back every text exactly (one-to-one)', () => {
    for (const c of cases) expect(unescapeFormula(escapeFormula(c))).toBe(c);
    const escaped = cases.map(escapeFormula);
    expect(new Set(escaped).size).toBe(cases.length);
  });
});

describe('writeExport', () => {
  it('writes CSV with csv-stringify: header, BOM, quoted text, guarded formulas, numbers as numbers', async () => {
    const { out, text } = collect();
    const n = await writeExport(
      [
        { a: '=cmd', b: 3 },
        { a: 'line\nbreak, "quoted"', b: null },
      ],
      { format: 'csv', columns: ['a', 'b'], out },
    );
    expect(n).toBe(2);
    expect(text().startsWith('\uFEFF"a","b"\n')).toBe(true);
    expect(parse(text(), { columns: true, bom: true })).toEqual([
      { a: "'=cmd", b: '3' },
      { a: 'line\nbreak, "quoted"', b: '' },
    ]);
  });

  it('writes JSON as one array, records as they are (no formula guard: JSON is not a spreadsheet)', async () => {
    const { out, text } = collect();
    await writeExport([{ a: '=x', n: [1] }], { format: 'json', columns: [], out });
    expect(JSON.parse(text())).toEqual([{ a: '=x', n: [1] }]);
    const empty = collect();
    await writeExport([], { format: 'json', columns: [], out: empty.out });
    expect(JSON.parse(empty.text())).toEqual([]);
  });

  it('pulls records only as fast as the destination takes them', async () => {
    let pulled = 0;
    function* many() {
      for (let i = 0; i < 100_000; i++) {
        pulled += 1;
        yield { a: `row ${i}`.padEnd(200, '.') };
      }
    }
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let firstWrite = true;
    const slow = new Writable({
      highWaterMark: 1024,
      write(_chunk, _enc, done) {
        if (firstWrite) {
          firstWrite = false;
          void gate.then(() => done());
        } else done();
      },
    });
    const writing = writeExport(many(), { format: 'csv', columns: ['a'], out: slow });
    await new Promise((r) => setTimeout(r, 50));
    // Held at the first chunk: only a few buffers' worth were read from the source, not all 100,000.
    expect(pulled).toBeLessThan(2_000);
    release();
    expect(await writing).toBe(100_000);
  });

  it('writes local times in the zone asked for, across a clock change', () => {
    expect(localTime('2031-03-30T00:30:00Z', 'Europe/Paris')).toBe('2031-03-30 01:30:00');
    expect(localTime('2031-03-30T01:30:00Z', 'Europe/Paris')).toBe('2031-03-30 03:30:00');
    expect(localTime(null, 'UTC')).toBe('');
  });
});
