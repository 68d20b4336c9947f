/**
 * How deep a request body may nest objects and arrays. Contract bodies need a handful of levels
 * (an MCP call wrapping a post with target settings stays under ten); free-form members such as
 * `settings` and `metadata` get the rest. Far below what the JSON engine, zod and the canonical
 * hashing can recurse through, so a deep body is a 400, never a stack overflow.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when the JSON text opens more than `max` objects or arrays inside one another. Brackets
 * inside strings do not count. One pass over the text, no recursion; the text need not be valid
 * JSON (the parser judges that afterwards).
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
