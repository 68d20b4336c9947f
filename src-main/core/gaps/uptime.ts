import type { Migration, Store } from '../store/store';
import type { Occurrence } from './upcoming';

export const UPTIME_NAMESPACE = 'uptime';

export const UPTIME_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE uptime_sessions (
           id INTEGER PRIMARY KEY AUTOINCREMENT,
           kind TEXT NOT NULL,
           started_at TEXT NOT NULL,
           last_seen_at TEXT NOT NULL,
           stopped_at TEXT
         );
         CREATE INDEX uptime_sessions_started ON uptime_sessions (kind, started_at);`,
  },
];

/** What is recorded: the app (desktop window and tray) and an executor (which is what runs automations). */
export type UptimeKind = 'app' | 'executor';

export interface UptimeSession {
  readonly kind: UptimeKind;
  readonly start: number;
  /** When it stopped, or was last known alive (a crash leaves no stop). */
  readonly end: number;
}

export interface UptimeHandle {
  /** Says it is still alive (so a crash loses at most one beat). */
  beat(): void;
  stop(): void;
}

export interface UptimeLog {
  start(kind: UptimeKind): UptimeHandle;
  sessions(kind: UptimeKind, since: number): readonly UptimeSession[];
  /** The first session ever recorded, or null. */
  firstStart(kind: UptimeKind): number | null;
}

/** Records when Postdesk's app and executor start and stop, in its own store namespace. */
export function openUptimeLog(store: Store, now: () => Date = () => new Date()): UptimeLog {
  store.migrate(UPTIME_NAMESPACE, UPTIME_MIGRATIONS);
  const db = store.db;
  const insert = db.prepare<[string, string, string]>(
    'INSERT INTO uptime_sessions (kind, started_at, last_seen_at) VALUES (?, ?, ?)',
  );
  const beat = db.prepare<[string, number]>('UPDATE uptime_sessions SET last_seen_at = ? WHERE id = ?');
  const stop = db.prepare<[string, string, number]>(
    'UPDATE uptime_sessions SET stopped_at = ?, last_seen_at = ? WHERE id = ? AND stopped_at IS NULL',
  );
  const list = db.prepare<
    [string, string],
    { started_at: string; last_seen_at: string; stopped_at: string | null }
  >(
    `SELECT started_at, last_seen_at, stopped_at FROM uptime_sessions
      WHERE kind = ? AND COALESCE(stopped_at, last_seen_at) >= ? ORDER BY started_at`,
  );
  const first = db.prepare<[string], { started_at: string }>(
    'SELECT started_at FROM uptime_sessions WHERE kind = ? ORDER BY started_at LIMIT 1',
  );
  return {
    start(kind) {
      const at = now().toISOString();
      const id = Number(insert.run(kind, at, at).lastInsertRowid);
      let stopped = false;
      return {
        beat: () => {
          if (!stopped) beat.run(now().toISOString(), id);
        },
        stop: () => {
          if (stopped) return;
          stopped = true;
          const t = now().toISOString();
          stop.run(t, t, id);
        },
      };
    },
    sessions(kind, since) {
      return list.all(kind, new Date(since).toISOString()).map((r) => ({
        kind,
        start: Date.parse(r.started_at),
        end: Date.parse(r.stopped_at ?? r.last_seen_at),
      }));
    },
    firstStart(kind) {
      const r = first.get(kind);
      return r ? Date.parse(r.started_at) : null;
    },
  };
}

export const WEEK_MS = 7 * 24 * 3600_000;

/** Whether Postdesk ran at the same time of the week before: `unknown` before its history reaches back that far. */
export type LastWeek = 'running' | 'not_running' | 'unknown';

/**
 * Marks each occurrence by the past week's pattern: was an executor running at the same time a week (or whole
 * weeks) before, on or before now? An occurrence whose time fell while none ran is likely to be missed again.
 */
export function markByLastWeek(
  occurrences: readonly Occurrence[],
  sessions: readonly UptimeSession[],
  historySince: number | null,
  now: Date,
): Array<Occurrence & { readonly lastWeek: LastWeek }> {
  return occurrences.map((o) => {
    let probe = o.at.getTime() - WEEK_MS;
    while (probe > now.getTime()) probe -= WEEK_MS;
    if (historySince === null || probe < historySince) return { ...o, lastWeek: 'unknown' as const };
    const ran = sessions.some((s) => s.start <= probe && probe <= s.end);
    return { ...o, lastWeek: ran ? ('running' as const) : ('not_running' as const) };
  });
}

/** How often a running app or executor says it is still alive. */
export const UPTIME_BEAT_MS = 5 * 60_000;
