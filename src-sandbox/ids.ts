import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): the millisecond time first, then 74 random bits. Rows keyed by it go in at the end of
 * their indexes instead of on a random page each, so a 100-item bulk dirties a few pages rather than hundreds
 * (the commit writes every dirty page). Not for anything that must be unguessable: use randomUUID() there.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const hex = randomUUID().replaceAll('-', '');
  const v7 = `${now.toString(16).padStart(12, '0').slice(-12)}7${hex.slice(13)}`;
  return `${v7.slice(0, 8)}-${v7.slice(8, 12)}-${v7.slice(12, 16)}-${v7.slice(16, 20)}-${v7.slice(20)}`;
}
