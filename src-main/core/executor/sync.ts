import { hostname } from 'node:os';
import { LIMITS, type Automation } from '../../../src-shared/api';
import type { Logger } from '../common/logger';
import type { Clock } from './clock';
import type { Journal, JournalRun } from './journal';
import { errorFacts, hasCode, type ExecutorApi, type Retrier } from './ports';

export interface SyncDeps {
  readonly api: ExecutorApi;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: Retrier;
  readonly name: string;
  readonly agentType: string;
  readonly deviceLabel?: string | undefined;
  readonly capabilities?: Readonly<Record<string, unknown>> | undefined;
  readonly concurrency: () => number;
  /** Registration or a sync failed: the executor shows itself offline. */
  readonly onOffline: () => void;
  /** The service answered REVISION_STALE to an ack: the next pass should come soon. */
  readonly requestSync: () => void;
}

/** How many acks a sync sends at once. */
const ACKS_AT_ONCE = 8;

/**
 * The executor's side of the conversation about automations: who it is (register), what it runs (sync),
 * and which revision it has accepted (ack). It holds the automations of the last good sync.
 */
export class AutomationSync {
  private executorId_: string | null = null;
  private automations_ = new Map<string, Automation>();
  private lastSyncAt_: string | null = null;
  private lastError_: string | null = null;
  private failures_ = 0;
  /** What was last saved of each automation, to skip rewriting an unchanged one at every sync. */
  private readonly saved = new Map<string, string>();

  constructor(private readonly d: SyncDeps) {}

  get executorId(): string | null {
    return this.executorId_;
  }

  /** The executor id, once registered. */
  get id(): string {
    if (!this.executorId_) throw new Error('the executor is not registered');
    return this.executorId_;
  }

  get automations(): ReadonlyMap<string, Automation> {
    return this.automations_;
  }

  get lastSyncAt(): string | null {
    return this.lastSyncAt_;
  }

  get lastError(): string | null {
    return this.lastError_;
  }

  /** Failed registrations and syncs since the last good sync. */
  get failures(): number {
    return this.failures_;
  }

  async register(): Promise<void> {
    const { api, journal } = this.d;
    const known = journal.identity();
    const body = {
      name: this.d.name.slice(0, LIMITS.executorName),
      agent_type: this.d.agentType.slice(0, LIMITS.agentType),
      device_label: this.d.deviceLabel ?? hostname(),
      capabilities: {
        queues: ['local', 'legacy'],
        direct_upload: ['tiktok', 'youtube'],
        concurrency: this.d.concurrency(),
        platform: process.platform,
        ...this.d.capabilities,
      },
    };
    let res;
    try {
      res = await this.d.retry(
        () => api.registerExecutor(known ? { ...body, executor_id: known.executorId } : body),
        { answeredOnly: true },
      );
    } catch (err) {
      if (!known || !hasCode(err, 'EXECUTOR_NOT_FOUND')) {
        this.lastError_ = `register failed: ${errorFacts(err).message}`;
        this.failures_ += 1;
        this.d.onOffline();
        throw err;
      }
      this.d.logger.warn(`executor ${known.executorId} is unknown to the service; registering anew`);
      res = await this.d.retry(() => api.registerExecutor(body), { answeredOnly: true });
    }
    this.executorId_ = res.executor.id;
    journal.saveIdentity(res.executor.id, body.name, body.agent_type);
    this.d.logger.info(`registered as executor ${res.executor.id}`);
  }

  /** The service's list of automations for this executor; null when it could not be had. */
  async fetch(): Promise<Automation[] | null> {
    try {
      const res = await this.d.retry(() => this.d.api.syncAutomations(this.id));
      this.failures_ = 0;
      this.lastError_ = null;
      this.lastSyncAt_ = this.d.clock.now().toISOString();
      return res.automations;
    } catch (err) {
      this.failures_ += 1;
      this.lastError_ = `sync failed: ${errorFacts(err).message}`;
      this.d.logger.warn(this.lastError_);
      this.d.onOffline();
      return null;
    }
  }

  /**
   * Saves every automation of a synced list, keeps those run here and acknowledges their new revisions;
   * they become the automations of this executor.
   */
  async accept(list: readonly Automation[]): Promise<ReadonlyMap<string, Automation>> {
    const seen = new Map<string, Automation>();
    for (const a of list) {
      this.save(a);
      if (this.ours(a)) seen.set(a.id, a);
    }
    // A few acks at a time: a first sync (or a change to many automations) brings hundreds of new revisions,
    // and one ack after another kept the pass, and every start behind it, waiting for all of them.
    const pending = [...seen.values()];
    const worker = async () => {
      for (let a = pending.shift(); a; a = pending.shift()) await this.ack(a);
    };
    await Promise.all(Array.from({ length: Math.min(ACKS_AT_ONCE, pending.length) }, worker));
    this.automations_ = seen;
    return seen;
  }

  /** Saves a synced automation in the journal, unless it is what was saved last (most syncs change nothing). */
  private save(a: Automation): void {
    const text = JSON.stringify(a);
    if (this.saved.get(a.id) === text) return;
    this.d.journal.saveAutomation(a.id, a.revision, a);
    this.saved.set(a.id, text);
  }

  /** Syncs for one automation and returns it when its current revision is acknowledged. */
  async refresh(automationId: string): Promise<Automation | null> {
    const list = await this.fetch();
    const a = list?.find((x) => x.id === automationId);
    if (!a) return null;
    this.automations_.set(a.id, a);
    this.save(a);
    await this.ack(a);
    const saved = this.d.journal.automation(a.id);
    return saved?.acked_revision === a.revision ? a : null;
  }

  /** The automation of a journal row: as last synced, else as last saved (after a restart). */
  automationFor(row: JournalRun): Automation | undefined {
    const live = this.automations_.get(row.automation_id);
    if (live) return live;
    const saved = this.d.journal.automation(row.automation_id);
    if (!saved) return undefined;
    return JSON.parse(saved.data) as Automation;
  }

  /** Is this automation run here? Bound to another executor, it is that executor's. */
  private ours(a: Automation): boolean {
    return !a.executor_id || a.executor_id === this.executorId_;
  }

  private async ack(a: Automation): Promise<void> {
    const { journal } = this.d;
    const saved = journal.automation(a.id);
    const acked = Math.max(a.acked_revision ?? -1, saved?.acked_revision ?? -1);
    if (a.status === 'removed' || acked >= a.revision) {
      if (saved?.acked_revision !== a.revision && acked >= a.revision) journal.setAck(a.id, a.revision, null);
      return;
    }
    try {
      await this.d.retry(() =>
        this.d.api.ackAutomation(a.id, { executor_id: this.id, revision: a.revision }),
      );
      journal.setAck(a.id, a.revision, null);
      this.d.logger.info(`acknowledged ${a.name} revision ${a.revision}`);
    } catch (err) {
      const f = errorFacts(err);
      journal.setAck(a.id, null, `${f.code ?? f.status ?? 'network'}: ${f.message}`);
      this.d.logger.warn(`could not acknowledge ${a.name} revision ${a.revision}: ${f.message}`);
      if (f.code === 'REVISION_STALE') this.d.requestSync();
    }
  }
}
