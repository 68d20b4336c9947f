import { randomUUID } from 'node:crypto';

let lastMs = -1;
let lastPrefix = '';

/**
 * A UUIDv7 (RFC 9562): the millisecond time first, then 74 random bits. Rows keyed by it go in at the end of
 * their indexes instead of on a random page each, so a 100-item bulk dirties a few pages rather than hundreds.
 * Not for anything that must be unguessable: use randomUUID() there.
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (now !== lastMs) {
    const hex = now.toString(16).padStart(12, '0').slice(-12);
    lastPrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
    lastMs = now;
  }
  // randomUUID() is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: keep its random bits from the version digit on.
  return lastPrefix + randomUUID().slice(15);
}
