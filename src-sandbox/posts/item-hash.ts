import { hash } from 'node:crypto';

/**
 * The JSON text of `value` with every object's keys sorted and undefined members left out: what
 * `JSON.stringify` makes of the value rebuilt with sorted keys, written in one pass instead of rebuilding
 * each object first (a bulk hashes 100 items per request).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (i > 0) out += ',';
      // As JSON.stringify writes them in an array.
      out += v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonicalJson(v);
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '{';
    for (const key of Object.keys(record).sort()) {
      const v = record[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${canonicalJson(v)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A stable hash of a bulk item (keys sorted), so a retry with the same content matches byte for byte. Stored
 * with each item (`bulk_items.request_hash`): the text hashed must never change, or a retry after an
 * upgrade would be refused as a different item.
 */
export const hashBulkItem = (item: object): string => hash('sha256', canonicalJson(item), 'hex');
