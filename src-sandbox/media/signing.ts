import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { metaGet, metaSet } from '../db';

const secrets = new WeakMap<Database.Database, Buffer>();

/** The HMAC key of upload addresses, kept in the database so a `--data` restart keeps URLs valid. */
function secretOf(db: Database.Database): Buffer {
  let secret = secrets.get(db);
  if (!secret) {
    const stored = metaGet(db, 'upload_secret');
    secret = stored ? Buffer.from(stored, 'hex') : randomBytes(32);
    if (!stored) metaSet(db, 'upload_secret', secret.toString('hex'));
    secrets.set(db, secret);
  }
  return secret;
}

const mac = (db: Database.Database, method: string, path: string, expiresMs: number): string =>
  createHmac('sha256', secretOf(db)).update(`${method}\n${path}\n${expiresMs}`).digest('hex');

/**
 * A presigned address: `<base><path>?expires=<epoch ms>&signature=<hex HMAC-SHA256 of "METHOD\npath\nexpires">`.
 * The agent's direct-upload PUT uses the same scheme.
 */
export function signUploadUrl(
  db: Database.Database,
  base: string,
  path: string,
  expiresAt: Date,
  method = 'PUT',
): string {
  const expires = expiresAt.getTime();
  return `${base}${path}?expires=${expires}&signature=${mac(db, method, path, expires)}`;
}

export type SignatureCheck = 'ok' | 'invalid' | 'expired';

/** Checks a presigned address's query against its path and the sandbox clock (`nowMs`). */
export function checkUploadSignature(
  db: Database.Database,
  path: string,
  query: { expires?: unknown; signature?: unknown },
  nowMs: number,
  method = 'PUT',
): SignatureCheck {
  const expires = Number(query.expires);
  const signature = typeof query.signature === 'string' ? query.signature : '';
  if (!Number.isSafeInteger(expires) || !/^[a-f0-9]{64}$/.test(signature)) return 'invalid';
  const expected = Buffer.from(mac(db, method, path, expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return expires <= nowMs ? 'expired' : 'ok';
}
