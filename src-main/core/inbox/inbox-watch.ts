import type { Migration, Store } from '../store/store';
import { toldOnce, toldOnceTablesSql } from '../store/told-once';
import { errorText } from '../common/error-text';
import { Emitter, type Disposable } from '../common/events';
import { createPoller } from '../common/poller';
import { silentLogger, type Logger } from '../common/logger';
import type { InboxSnapshot } from './inbox';

export const INBOX_WATCH_NAMESPACE = 'inbox_watch';

/** The runs with drafts announced, once per service. */
const TOLD = {
  told: 'inbox_watch_announced',
  key: 'run_id',
  at: 'announced_at',
  scopes: 'inbox_watch_scopes',
} as const;

export const INBOX_WATCH_MIGRATIONS: readonly Migration[] = [{ version: 1, up: toldOnceTablesSql(TOLD) }];

/** The inbox filtered to one run: what a notification's click opens. */
export const inboxLink = (runId: string): string => `postdesk://inbox/${runId}`;

/** A run that left drafts in the inbox, told once. */
export interface DraftRun {
  readonly runId: string;
  readonly automationName: string | null;
  readonly drafts: number;
  readonly link: string;
}

export interface InboxWatchOptions {
  readonly store: Store;
  /** The inbox now, or null while disconnected. */
  readonly list: () => Promise<InboxSnapshot | null>;
  /** Which service the memory belongs to ("sandbox", or the base URL). */
  readonly scope: () => string;
  readonly intervalMs?: number;
  readonly now?: () => Date;
  readonly log?: Logger;
}

export interface InboxWatch {
  /** One event per run that produced drafts, ever (the store remembers across restarts). */
  readonly onDidDraftRun: (listener: (r: DraftRun) => void) => Disposable;
  /** How many drafts wait changed. */
  readonly onDidChangeCount: (listener: (total: number) => void) => Disposable;
  /** Drafts waiting at the last check (0 before the first). */
  count(): number;
  /** Someone acted (approve, reject): the count they saw. */
  setCount(total: number): void;
  checkNow(): Promise<readonly DraftRun[]>;
  start(): Disposable;
  dispose(): void;
}

/**
 * Looks at the inbox (after each run, and on a timer) and tells of each run with drafts once: a run's drafts make
 * one notice, never one per draft. The first check of a service only records the runs already waiting, as the
 * delivery watch does, so connecting does not announce a whole backlog.
 */
export function createInboxWatch(o: InboxWatchOptions): InboxWatch {
  o.store.migrate(INBOX_WATCH_NAMESPACE, INBOX_WATCH_MIGRATIONS);
  const now = o.now ?? (() => new Date());
  const log = o.log ?? silentLogger;
  const runs = new Emitter<DraftRun>((error) =>
    log.warn('an inbox listener failed', { error: errorText(error) }),
  );
  const counts = new Emitter<number>((error) =>
    log.warn('an inbox count listener failed', { error: errorText(error) }),
  );
  const announced = toldOnce(o.store.db, TOLD);
  let total = 0;

  const setCount = (n: number) => {
    if (n === total) return;
    total = n;
    counts.fire(n);
  };

  const check = async (): Promise<readonly DraftRun[]> => {
    const snapshot = await o.list();
    if (!snapshot) {
      setCount(0);
      return [];
    }
    const scope = o.scope();
    const byRun = new Map<string, DraftRun>();
    for (const g of snapshot.groups) {
      for (const d of g.drafts) {
        const seen = byRun.get(d.run.id);
        byRun.set(d.run.id, {
          runId: d.run.id,
          automationName: g.automation_name,
          drafts: (seen?.drafts ?? 0) + 1,
          link: inboxLink(d.run.id),
        });
      }
    }
    const { fresh } = announced.record(scope, byRun.values(), (r) => r.runId, now().toISOString());
    setCount(snapshot.total);
    for (const r of fresh) runs.fire(r);
    return fresh;
  };

  const poller = createPoller({
    check,
    intervalMs: o.intervalMs,
    log,
    what: 'checking the inbox',
    owns: [runs, counts],
  });
  const watch: InboxWatch = {
    onDidDraftRun: runs.event,
    onDidChangeCount: counts.event,
    count: () => total,
    setCount,
    checkNow: () => poller.checkNow(),
    start: () => poller.start(),
    dispose: () => poller.dispose(),
  };
  return watch;
}
