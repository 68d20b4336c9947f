import { errorText } from '../common/error-text';
import { Emitter, type Event } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';
import type { Store } from '../store/store';
import { AssistantLedger } from './proposals';

/** A request an assistant made through `postdesk mcp` (another process), noticed here. */
export interface ProposalMade {
  readonly id: string;
  readonly tool: string;
}

export interface ProposalWatch {
  /** Once per proposal made after the watch started. */
  readonly onDidPropose: Event<ProposalMade>;
  /** How many wait changed (a new one, a decision here or in `postdesk inbox`). */
  readonly onDidChangeWaiting: Event<number>;
  dispose(): void;
}

/**
 * Proposals are written by `postdesk mcp`, a process of its own, into the shared store: the app reads them
 * every few seconds (one indexed query) to tell the page and notify. Those waiting at start are not
 * announced again.
 */
export function createProposalWatch(o: {
  readonly store: Pick<Store, 'db' | 'migrate'>;
  readonly intervalMs?: number;
  readonly log?: Logger;
}): ProposalWatch {
  const log = o.log ?? silentLogger;
  const proposed = new Emitter<ProposalMade>((e) =>
    log.warn('a proposal listener failed', { error: errorText(e) }),
  );
  const waiting = new Emitter<number>((e) => log.warn('a proposal listener failed', { error: errorText(e) }));
  let ledger: AssistantLedger | null = null;
  let seen: Set<string> | null = null;
  let count = -1;
  const check = () => {
    try {
      ledger ??= new AssistantLedger(o.store);
      const pending = ledger.list(['pending']);
      if (seen === null) seen = new Set(pending.map((p) => p.id));
      for (const p of pending) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        proposed.fire({ id: p.id, tool: p.tool });
      }
      if (pending.length !== count) {
        count = pending.length;
        waiting.fire(count);
      }
    } catch (error) {
      log.warn('reading the assistant proposals failed', { error: errorText(error) });
    }
  };
  check();
  const timer = setInterval(check, o.intervalMs ?? 3000);
  timer.unref();
  return {
    onDidPropose: proposed.event,
    onDidChangeWaiting: waiting.event,
    dispose() {
      clearInterval(timer);
      proposed.dispose();
      waiting.dispose();
    },
  };
}
