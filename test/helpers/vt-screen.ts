/**
 * A small terminal: what a person would see after a program wrote `data`. It obeys what a real terminal obeys
 * for redrawing (CR, LF as the tty's CR LF, backspace, tab, CSI cursor moves and erases, the one-byte C1 CSI,
 * save/restore cursor) and swallows what it would not print (OSC titles and hyperlinks, other escapes, SGR
 * colours). Enough to tell whether text can rewrite what is on screen; not a full VT100.
 */
export class VtScreen {
  private rows: string[][] = [[]];
  private row = 0;
  private col = 0;
  private saved: [number, number] = [0, 0];
  /** OSC strings seen (a title change, a hyperlink): a real terminal acts on them without printing. */
  readonly osc: string[] = [];

  constructor(private readonly width = 1000) {}

  write(data: string): this {
    const chars = Array.from(data);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      const code = c.codePointAt(0) ?? 0;
      if (c === '\x1b' || code === 0x9b || code === 0x9d) {
        i = this.escape(chars, i);
        continue;
      }
      if (c === '\r') this.col = 0;
      else if (c === '\n') this.lineFeed(true);
      else if (c === '\b') this.col = Math.max(0, this.col - 1);
      else if (c === '\t') this.col = Math.min(this.width - 1, (Math.floor(this.col / 8) + 1) * 8);
      else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) continue;
      else this.put(c);
    }
    return this;
  }

  /** The screen's lines, trailing spaces and empty last lines dropped. */
  lines(): string[] {
    const out = this.rows.map((r) =>
      Array.from(r, (ch) => ch ?? ' ')
        .join('')
        .trimEnd(),
    );
    while (out.length > 0 && out.at(-1) === '') out.pop();
    return out;
  }

  private lineFeed(carriageReturn: boolean): void {
    this.row += 1;
    if (carriageReturn) this.col = 0;
    this.ensureRow();
  }

  private ensureRow(): void {
    while (this.rows.length <= this.row) this.rows.push([]);
  }

  private put(c: string): void {
    if (this.col >= this.width) this.lineFeed(true);
    this.ensureRow();
    const r = this.rows[this.row] as string[];
    while (r.length < this.col) r.push(' ');
    r[this.col] = c;
    this.col += 1;
  }

  /** Handles the escape starting at `i`; returns the index of its last character. */
  private escape(chars: readonly string[], i: number): number {
    const first = chars[i] as string;
    let j = i + 1;
    let kind: string;
    if (first === '\x1b') {
      kind = chars[j] ?? '';
      j += 1;
    } else kind = first === '\x9b' ? '[' : ']';
    if (kind === '[') {
      let params = '';
      while (j < chars.length && /[0-9;?<=>!"' $]/.test(chars[j] as string)) params += chars[j++];
      this.csi(params, chars[j] ?? '');
      return j;
    }
    if (kind === ']' || kind === 'P' || kind === '_' || kind === '^') {
      // A string ended by BEL or ST (ESC \ or 0x9c).
      let text = '';
      while (j < chars.length) {
        const ch = chars[j] as string;
        if (ch === '\x07' || ch === '\x9c') break;
        if (ch === '\x1b' && chars[j + 1] === '\\') {
          j += 1;
          break;
        }
        text += ch;
        j += 1;
      }
      this.osc.push(text);
      return j;
    }
    if (kind === '7') this.saved = [this.row, this.col];
    else if (kind === '8') [this.row, this.col] = this.saved;
    else if (kind === 'M') this.row = Math.max(0, this.row - 1);
    else if (kind === 'D' || kind === 'E') this.lineFeed(kind === 'E');
    else if (kind === 'c') {
      this.rows = [[]];
      this.row = 0;
      this.col = 0;
    }
    return j - 1;
  }

  private csi(params: string, final: string): void {
    const ns = params.replace(/[?<=>!"' $]/g, '').split(';');
    const n = (k: number, d = 1): number => {
      const v = Number(ns[k] || d);
      return Number.isFinite(v) && v > 0 ? v : d;
    };
    const r = (): string[] => {
      this.ensureRow();
      return this.rows[this.row] as string[];
    };
    switch (final) {
      case 'A':
        this.row = Math.max(0, this.row - n(0));
        break;
      case 'B':
        this.row += n(0);
        break;
      case 'C':
        this.col = Math.min(this.width - 1, this.col + n(0));
        break;
      case 'D':
        this.col = Math.max(0, this.col - n(0));
        break;
      case 'E':
        this.row += n(0);
        this.col = 0;
        break;
      case 'F':
        this.row = Math.max(0, this.row - n(0));
        this.col = 0;
        break;
      case 'G':
        this.col = n(0) - 1;
        break;
      case 'H':
      case 'f':
        this.row = n(0) - 1;
        this.col = n(1) - 1;
        break;
      case 'J': {
        const mode = Number(ns[0] || 0);
        if (mode === 2 || mode === 3) this.rows = this.rows.map(() => []);
        else if (mode === 0) {
          r().length = Math.min(r().length, this.col);
          for (let k = this.row + 1; k < this.rows.length; k++) this.rows[k] = [];
        } else {
          for (let k = 0; k < this.row; k++) this.rows[k] = [];
          for (let k = 0; k <= this.col; k++) r()[k] = ' ';
        }
        break;
      }
      case 'K': {
        const mode = Number(ns[0] || 0);
        const line = r();
        if (mode === 2) line.length = 0;
        else if (mode === 0) line.length = Math.min(line.length, this.col);
        else for (let k = 0; k <= this.col && k < line.length; k++) line[k] = ' ';
        break;
      }
      case 's':
        this.saved = [this.row, this.col];
        break;
      case 'u':
        [this.row, this.col] = this.saved;
        break;
      default:
        // SGR colours and the rest change no character on screen.
        break;
    }
    this.ensureRow();
  }
}

/** The screen a person sees after `data` was written to a fresh terminal. */
export function screenOf(data: string, width?: number): string[] {
  return new VtScreen(width).write(data).lines();
}
