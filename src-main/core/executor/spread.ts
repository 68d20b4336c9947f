/**
 * A number from 0 to 2^32 - 1 for (salt, id), stable and evenly spread (FNV-1a, 32 bits): each executor of a
 * fleet orders the same occurrences differently by its own id, so their first starts go to different ones.
 */
export function spreadKey(salt: string, id: string): number {
  let h = 0x811c9dc5;
  const text = `${salt}\u0000${id}`;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
