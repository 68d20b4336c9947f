import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExecutorMetrics as ExecutorMetricsView } from '../../../src-shared/ipc/executor';
import { systemClock, type Clock } from './clock';
import type { Executor } from './executor';
import { EXECUTOR_STATES } from './executor-events';

/** Start delays in seconds: on time (under a second) up to a whole sync interval and the grace window. */
const DELAY_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900];

export interface MetricsOptions {
  readonly clock?: Clock;
  /** The last sync counts as recent within this long (default: three sync intervals of a minute). */
  readonly healthyWithinMs?: number;
}

export interface Health {
  readonly healthy: boolean;
  readonly lastSyncAt: string | null;
  readonly ageSeconds: number | null;
}

/**
 * The executor's figures in a prom-client registry of their own: runs started, completed, failed and not
 * run per automation, the start delay of each run, the last successful sync and the agents running. The
 * daemon serves them as Prometheus text; the app reads the same registry for Settings → Executor.
 */
export class ExecutorMetrics {
  readonly registry = new Registry();
  private readonly clock: Clock;
  private readonly healthyWithinMs: number;
  private readonly names = new Map<string, string>();
  private readonly subs: { dispose(): void }[];

  constructor(
    private readonly executor: Executor,
    o: MetricsOptions = {},
  ) {
    this.clock = o.clock ?? systemClock;
    this.healthyWithinMs = o.healthyWithinMs ?? 3 * 60_000;
    const registers = [this.registry];
    const started = new Counter({
      name: 'postdesk_executor_runs_started_total',
      help: 'Runs this executor started, by automation.',
      labelNames: ['automation_id'],
      registers,
    });
    const completed = new Counter({
      name: 'postdesk_executor_runs_completed_total',
      help: 'Runs this executor completed, by automation.',
      labelNames: ['automation_id'],
      registers,
    });
    const failed = new Counter({
      name: 'postdesk_executor_runs_failed_total',
      help: 'Runs that failed, by automation and reason code.',
      labelNames: ['automation_id', 'reason'],
      registers,
    });
    const missed = new Counter({
      name: 'postdesk_executor_runs_missed_total',
      help: 'Occurrences not run here, by automation and reason code (other_executor: another machine ran it).',
      labelNames: ['automation_id', 'reason'],
      registers,
    });
    const delay = new Histogram({
      name: 'postdesk_executor_start_delay_seconds',
      help: 'From the time an occurrence fell due to the start of its run.',
      buckets: DELAY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'postdesk_executor_last_sync_timestamp_seconds',
      help: 'When the last successful sync with the service happened (Unix time; 0: never).',
      registers,
      collect() {
        const at = executor.status().lastSyncAt;
        this.set(at ? Date.parse(at) / 1000 : 0);
      },
    });
    const lastSuccess = new Gauge({
      name: 'postdesk_executor_automation_last_success_timestamp_seconds',
      help:
        'When a run of the automation last completed on this executor (Unix time, executor clock). Across a ' +
        'fleet take the max by automation_id: an alert can then say it has not succeeded in 2 hours.',
      labelNames: ['automation_id'],
      registers,
    });
    new Gauge({
      name: 'postdesk_executor_state',
      help: 'The executor state, one series per state, 1 for the current one (stopping: draining or shutting down).',
      labelNames: ['state'],
      registers,
      collect() {
        const now = executor.status().state;
        for (const s of EXECUTOR_STATES) this.set({ state: s }, s === now ? 1 : 0);
      },
    });
    new Gauge({
      name: 'postdesk_executor_running_agents',
      help: 'Runs in progress (their agents running, or their output being published).',
      registers,
      collect() {
        this.set(executor.status().activeRuns);
      },
    });

    const name = (r: { automationId: string; automationName: string | null }) => {
      if (r.automationName) this.names.set(r.automationId, r.automationName);
      return { automation_id: r.automationId };
    };
    this.subs = [
      executor.onDidStartRun((r) => {
        started.inc(name(r));
        if (r.scheduledFor) {
          const late = (this.clock.now().getTime() - Date.parse(r.scheduledFor)) / 1000;
          delay.observe(Math.max(0, late));
        }
      }),
      executor.onDidFinishRun((r) => {
        completed.inc(name(r));
        lastSuccess.set(name(r), this.clock.now().getTime() / 1000);
      }),
      executor.onDidFailRun((r) => failed.inc({ ...name(r), reason: r.code })),
      executor.onDidMissRun((r) => missed.inc({ ...name(r), reason: r.code })),
    ];
  }

  private processMetrics = false;

  /** Adds the process's CPU, memory and event-loop figures (the daemon's `/metrics`), once. */
  withProcessMetrics(): this {
    if (!this.processMetrics)
      collectDefaultMetrics({ register: this.registry, prefix: 'postdesk_executor_' });
    this.processMetrics = true;
    return this;
  }

  /** Whether the last successful sync is recent: what `/healthz` answers. */
  health(): Health {
    const at = this.executor.status().lastSyncAt;
    if (!at) return { healthy: false, lastSyncAt: null, ageSeconds: null };
    const ageMs = this.clock.now().getTime() - Date.parse(at);
    return { healthy: ageMs <= this.healthyWithinMs, lastSyncAt: at, ageSeconds: Math.round(ageMs / 1000) };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The same figures as the Prometheus text, for the app. */
  async view(): Promise<ExecutorMetricsView> {
    const json = await this.registry.getMetricsAsJSON();
    const byName = new Map(json.map((m) => [m.name, m.values]));
    const automations = new Map<string, ExecutorMetricsView['automations'][number]>();
    const row = (id: string) => {
      let r = automations.get(id);
      if (!r) {
        r = {
          automation_id: id,
          name: this.names.get(id) ?? null,
          started: 0,
          completed: 0,
          failed: 0,
          missed: 0,
        };
        automations.set(id, r);
      }
      return r;
    };
    const add = (metric: string, field: 'started' | 'completed' | 'failed' | 'missed') => {
      for (const v of byName.get(metric) ?? []) {
        const id = v.labels.automation_id;
        if (typeof id === 'string') row(id)[field] += v.value;
      }
    };
    add('postdesk_executor_runs_started_total', 'started');
    add('postdesk_executor_runs_completed_total', 'completed');
    add('postdesk_executor_runs_failed_total', 'failed');
    add('postdesk_executor_runs_missed_total', 'missed');
    // A histogram's values carry the series they belong to (`_bucket`, `_sum`, `_count`).
    const hist = (byName.get('postdesk_executor_start_delay_seconds') ?? []) as {
      value: number;
      labels: Record<string, string | number | undefined>;
      metricName?: string;
    }[];
    const pick = (suffix: string) =>
      hist.find((v) => v.metricName === `postdesk_executor_start_delay_seconds${suffix}`);
    const count = pick('_count')?.value ?? 0;
    const sum = pick('_sum')?.value ?? 0;
    const buckets = hist
      .filter((v) => v.metricName?.endsWith('_bucket') && v.labels.le !== '+Inf')
      .map((v) => ({ le_seconds: Number(v.labels.le), count: v.value }));
    const health = this.health();
    return {
      last_sync_at: health.lastSyncAt,
      healthy: health.healthy,
      running_agents: this.executor.status().activeRuns,
      start_delay: { count, mean_seconds: count > 0 ? sum / count : null, buckets },
      automations: [...automations.values()],
    };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.registry.clear();
  }
}

const attached = new WeakMap<Executor, ExecutorMetrics>();

/** Counts an executor's runs from now on; once per executor, so every reader sees the same figures. */
export function attachMetrics(executor: Executor, o: MetricsOptions = {}): ExecutorMetrics {
  let m = attached.get(executor);
  if (!m) {
    m = new ExecutorMetrics(executor, o);
    attached.set(executor, m);
  }
  return m;
}

export function metricsOf(executor: Executor): ExecutorMetrics | undefined {
  return attached.get(executor);
}
