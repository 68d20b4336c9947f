import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  flatLine,
  graphemesOf,
  quotedCommand,
  quotedWord,
  safeJsonText,
  safeLine,
  safeText,
} from '../../../src-shared/safe-text';

describe('safeLine', () => {
  it('shows C0 and C1 controls, DEL, line breaks and bidi controls escaped, on one line', () => {
    expect(safeLine('a\x1b[2Kb\rc\nd\te\x07f\x7fg\x9b1Ah\u202ei\u2066j\u2028k')).toBe(
      'a\\x1b[2Kb\\rc\\nd\\te\\x07f\\x7fg\\u009b1Ah\\u202ei\\u2066j\\u2028k',
    );
  });

  it('leaves plain text, emoji and other scripts as they are, and is idempotent', () => {
    const plain = 'Café ☕ 👩‍👩‍👧 مرحبا 東京 C:\\Users\\me';
    expect(safeLine(plain)).toBe(plain);
    const once = safeLine('x\x1b]0;t\x07');
    expect(safeLine(once)).toBe(once);
  });

  it('cuts a long value with the mark between graphemes: an emoji is never split', () => {
    const family = '👩‍👩‍👧';
    const text = `ab${family}${family}cd`;
    expect(graphemesOf(text)).toHaveLength(6);
    expect(safeLine(text, { max: 4 })).toBe(`ab${family}…`);
    expect(safeLine(text, { max: 3 })).toBe('ab…');
    expect(safeLine(text, { max: 6 })).toBe(text);
    expect(safeLine(text, { max: 4 })).not.toContain('\ufffd');
    // A flag is two code points, one grapheme.
    expect(safeLine('🇫🇷🇩🇪🇯🇵', { max: 2 })).toBe('🇫🇷…');
    // Combining marks stay with their letter.
    expect(safeLine('e\u0301e\u0301e\u0301', { max: 2 })).toBe('e\u0301…');
  });

  it('counts an escape as what it shows, and never cuts one in half', () => {
    expect(safeLine('ab\x1bcdef', { max: 5 })).toBe('ab…');
    expect(safeLine('ab\x1bcdef', { max: 7 })).toBe('ab\\x1b…');
  });
});

describe('safeText and flatLine', () => {
  it('safeText keeps the line feeds and tabs of text meant as several lines, and escapes the rest', () => {
    expect(safeText('# Skill\r\n\tuse it\x1b[1A\n')).toBe('# Skill\n\tuse it\\x1b[1A\n');
  });

  it('flatLine folds spaces and line breaks, then escapes and cuts', () => {
    expect(flatLine('  one\n\n two\tthree\x07 ', 40)).toBe('one two three\\x07');
    expect(flatLine('Hello 👋🏽 world', 8)).toBe('Hello 👋🏽…');
  });
});

describe('quotedWord and quotedCommand', () => {
  it('quotes every word, so where each ends is plain', () => {
    expect(quotedCommand(['/usr/bin/my agent', '--fast', "it's"])).toBe(
      `'/usr/bin/my agent' '--fast' 'it'\\''s'`,
    );
  });

  it("uses bash's $'…' for a word that holds a character shown escaped, which reads back as that word", () => {
    expect(quotedWord('/tmp/x\r\x1b[2K/bin/true')).toBe(`$'/tmp/x\\r\\x1b[2K/bin/true'`);
    expect(quotedWord("a\\b'c\n")).toBe(`$'a\\\\b\\'c\\n'`);
    expect(quotedWord('safe\u202ehs')).toBe(`$'safe\\u202ehs'`);
  });
});

describe('a quoted command pasted into bash', () => {
  it('runs with exactly the words shown', () => {
    const words = ['/tmp/x\r\x1b[2K/bin/true', "it's", 'a\\b', 'safe\u202ehs', 'two\nlines', '\x9b1A'];
    const out = execFileSync('bash', ['-c', `printf '%s\\0' ${quotedCommand(words)}`], {
      env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' },
    }).toString('utf8');
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});

describe('safeJsonText', () => {
  it('keeps the JSON document and escapes C1 and bidi controls inside its strings', () => {
    const json = JSON.stringify({ a: 'x\x9b1Ay\u202ez\x1b' }, null, 2);
    const safe = safeJsonText(json);
    expect(JSON.parse(safe)).toEqual({ a: 'x\x9b1Ay\u202ez\x1b' });
    for (const c of ['\x9b', '\u202e', '\x1b']) expect(safe).not.toContain(c);
  });
});
