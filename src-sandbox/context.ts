import type Database from 'better-sqlite3';
import type { SandboxClock } from './clock';

/** What every sandbox module gets: the store, the clock and the server's addresses. */
export interface SandboxContext {
  db: Database.Database;
  clock: SandboxClock;
  dataDir: string;
  objectsDir: string;
  /** http://host:port of this server. */
  publicBaseUrl(): string;
  aliasBaseUrl(): string | null;
  /** Due work: called after every clock move and every ~1 s while the clock follows real time. */
  onTick(fn: (now: Date) => void): void;
  /** A new row id: a time-ordered UUIDv7 (ids.ts), never a secret. */
  uuid(): string;
}
