/**
 * Spreadsheet apps run a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a
 * formula: a caption such as `=HYPERLINK(…)` in an exported CSV would run when the file is opened. An export
 * therefore writes such a text with one `'` in front, which spreadsheets show as "text" and hide, and an import
 * takes that one `'` off again, so an exported file re-imports to the very same text.
 *
 * Any run of `'` before the risky character counts, so the mapping is one-to-one: a caption that itself starts
 * with `'=` is written `''=` and read back as `'=`. Text that does not start that way is never touched.
 */
const RISKY = /^'*[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

/** The text as an exported CSV cell holds it. */
export const escapeFormula = (text: string): string => (RISKY.test(text) ? `'${text}` : text);

/** The text an exported CSV cell stood for (the inverse of `escapeFormula`). */
export const unescapeFormula = (cell: string): string => (ESCAPED.test(cell) ? cell.slice(1) : cell);
