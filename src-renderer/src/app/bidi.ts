/** Bidi embeddings, overrides and isolates: characters that reorder the text after them. */
const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const NAMES: Readonly<Record<string, string>> = {
  '\u202A': 'LRE',
  '\u202B': 'RLE',
  '\u202C': 'PDF',
  '\u202D': 'LRO',
  '\u202E': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
};

/**
 * A name (a file's, an account's, an automation's) with each character that would reorder it shown rather
 * than obeyed: `invoice\u202Egpj.exe` reads "invoice⟨RLO⟩gpj.exe", never "invoiceexe.jpg". A name has no
 * honest use for them; right-to-left letters themselves are left alone. Every element that shows service
 * text is also bidi-isolated (base.css), so nothing leaks into the words around it.
 */
export const plainName = (name: string): string => name.replace(CONTROLS, (c) => `⟨${NAMES[c] ?? '?'}⟩`);
