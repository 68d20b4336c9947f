import { hash } from 'node:crypto';

/**
 * `value` rebuilt with every object's keys in sorted order and undefined members left out. Objects whose keys
 * are in order already (most are) are not sorted again: a bulk hashes 100 items per request.
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let inOrder = true;
    for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
    const out: Record<string, unknown> = {};
    for (const key of inOrder ? keys : keys.sort()) {
      const v = record[key];
      if (v !== undefined) out[key] = sortedKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * A stable hash of a bulk item (keys sorted), so a retry with the same content matches byte for byte. Stored
 * with each item (`bulk_items.request_hash`): the text hashed must never change, or a retry after an
 * upgrade would be refused as a different item.
 */
export const hashBulkItem = (item: object): string => hash('sha256', JSON.stringify(sortedKeys(item)), 'hex');
