import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The names this host answers to: a page reached by any other Host (DNS rebinding) is refused. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): ReadonlySet<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  return allowedHosts(port).has((req.headers.host ?? '').toLowerCase());
}

/** A browser always sends Origin on a WebSocket; a page of another site must not reach the bridge. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  return origin === undefined || allowedOrigins(port).has(origin.toLowerCase());
}

/** Constant-time comparison, so the secret cannot be guessed a character at a time. */
export function secretMatches(given: string | null | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
