import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ExecutorStatus } from '../../../src-shared/ipc/executor';
import type { RunDetail, RunRecord } from '../../../src-shared/ipc/runs';
import type { ApiClient } from '../api/client';
import type { SettingsService } from '../config/settings';
import { executorDataDir } from '../paths';
import type { Settings } from '../../../src-shared/settings';
import { confinementFromSettings } from '../executor/confine/policy';
import { automationAgentOf, automationFolderOf, chooseAgent } from '../executor/from-core';
import { Executor } from '../executor/executor';
import { subscribeExecutorEvents } from '../executor/executor-events';
import { createCoreMedia } from '../executor/media-core';
import { attachMetrics, metricsOf } from '../executor/metrics';
import { retentionOf } from '../executor/prune';
import { createSettingsTools, toolSettingsOf } from '../media/tools';
import type { JournalRun, RunPhase } from '../executor/journal';
import { readRunLog } from '../executor/run-log';
import type { Store } from '../store/store';
import { BridgeFault, forPeople, unavailable } from './bridge-fault';
import { errorText } from '../common/error-text';
import type { Disposable } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';
import type { BridgeEvents } from './events';
import type { ExecutorPort } from './ports';
import type { BridgeSession } from './host-ports';

const STATE: Readonly<Record<RunPhase, RunRecord['state']>> = {
  queued: 'pending',
  starting: 'running',
  running: 'running',
  agent_done: 'running',
  uploading: 'running',
  completing: 'running',
  // Failed here; only telling the service is left (it was unreachable): for the user it has failed.
  failing: 'failed',
  completed: 'completed',
  failed: 'failed',
  not_run: 'missed',
};

/** A journal row as the UI sees it. The local id is the run's id throughout its life. */
export function toRunRecord(row: JournalRun): RunRecord {
  return {
    id: row.id,
    automation_id: row.automation_id,
    automation_name: row.automation_name,
    revision: row.revision,
    state: row.state === 'not_run' && row.reason_code === 'skipped' ? 'skipped' : STATE[row.state],
    scheduled_for: row.scheduled_for,
    started_at: row.started_at,
    finished_at: row.finished_at,
    reason: row.reason === null ? null : forPeople(row.reason),
  };
}

/** An executor's status as the UI sees it; `stopped` when there is none. */
export function viewStatus(ex: Executor | null): ExecutorStatus {
  if (!ex) {
    return {
      state: 'stopped',
      executor_id: null,
      name: null,
      last_sync_at: null,
      next_sync_at: null,
      active_runs: 0,
      last_error: null,
    };
  }
  const s = ex.status();
  return {
    state: ex.state(),
    executor_id: s.executorId,
    name: ex.name,
    last_sync_at: s.lastSyncAt,
    next_sync_at: ex.nextSyncAt(),
    active_runs: s.activeRuns,
    last_error: s.lastError === null ? null : forPeople(s.lastError),
  };
}

/** The bridge's view of an executor that may come and go (`current` returns null while there is none). */
export function executorPortFor(current: () => Executor | null): ExecutorPort {
  const need = (): Executor => {
    const ex = current();
    if (!ex) throw unavailable('The executor');
    return ex;
  };
  const status = () => viewStatus(current());
  return {
    status: async () => status(),
    pause: async () => (need().pause(), status()),
    resume: async () => (need().resume(), status()),
    syncNow: async () => (need().syncNow(), status()),
    async runNow(automationId) {
      const ex = need();
      let info;
      try {
        info = await ex.runNow(automationId);
      } catch (e) {
        // the executor's refusals are plain errors with a readable reason
        if (e instanceof Error && !('status' in e)) throw new BridgeFault('invalid_input', e.message);
        throw e;
      }
      const row = ex.journal.get(info.localId);
      if (!row) throw new BridgeFault('internal', 'the run was not recorded');
      return toRunRecord(row);
    },
    async listRuns({ automation_id, limit }) {
      const ex = current();
      if (!ex) return [];
      return ex.journal
        .list({ limit: limit ?? 100, ...(automation_id ? { automationId: automation_id } : {}) })
        .map(toRunRecord);
    },
    async getRun(id): Promise<RunDetail | null> {
      const ex = current();
      const row = ex?.journal.find(id);
      if (!ex || !row) return null;
      const steps = ex.journal.steps(row.id).map((s) => ({
        step_id: s.step_id,
        status: s.status as RunDetail['steps'][number]['status'],
        message: s.message,
        at: s.at,
        source: s.source,
      }));
      const logs = row.run_dir ? await readRunLog(join(row.run_dir, 'run.log'), 500) : [];
      return { run: toRunRecord(row), steps, logs };
    },
    nextOccurrence: (a) => current()?.nextOccurrence(a) ?? null,
    automations: () => current()?.automations() ?? [],
    async metrics() {
      const ex = current();
      const m = ex ? metricsOf(ex) : undefined;
      return m ? m.view() : null;
    },
  };
}

/**
 * Forwards an executor's events onto the bridge: one handler per row of the executor's event table
 * (EXECUTOR_EVENTS), so a new event does not compile until it is forwarded here too.
 */
export function forwardExecutorEvents(ex: Executor, events: BridgeEvents): Disposable {
  const runChanged = ({ localId }: { readonly localId: string }) => {
    const row = ex.journal.get(localId);
    if (row) events.emit('runs:didChange', { run: toRunRecord(row) });
  };
  return subscribeExecutorEvents(ex, {
    state: () => events.emit('executor:didChangeStatus', viewStatus(ex)),
    started: runChanged,
    stepped: (s) =>
      events.emit('runs:didStepRun', {
        run_id: s.localId,
        automation_id: s.automationId,
        step: { step_id: s.stepId, status: s.status, message: s.message || null, at: s.at, source: s.source },
      }),
    logged: (l) =>
      events.emit('runs:didLog', { run_id: l.localId, line: { at: l.at, stream: l.stream, text: l.text } }),
    // What the run published reaches the pages through the index (the host refreshes it when a run completes).
    finished: runChanged,
    failed: runChanged,
    missed: runChanged,
  });
}

/**
 * Applies the executor's settings (`agentCommands`, `concurrency`, `missedRunPolicy`, grace window) to a
 * running executor. `rebuild` when the agent type changed (it is the executor's identity with the service)
 * or the agent configuration is not usable.
 */
export function applyExecutorSettings(ex: Executor, s: Readonly<Settings>): 'applied' | 'rebuild' {
  let chosen;
  try {
    chosen = chooseAgent(s.agentCommands);
  } catch {
    return 'rebuild';
  }
  if (chosen.agentType !== ex.agentType) return 'rebuild';
  ex.configure({
    agent: chosen.agent,
    concurrency: s.concurrency,
    missedRunPolicy: s.missedRunPolicy,
    graceMs: s.graceWindowMinutes * 60_000,
  });
  return 'applied';
}

/**
 * Follows `settings:didChange` on the bridge: applies the executor's settings in place, or, when that
 * cannot be done, rebuilds it once it has no run in flight (so a settings change never kills a run).
 */
export function followExecutorSettings(o: {
  readonly events: BridgeEvents;
  readonly settings: SettingsService;
  readonly current: () => Executor | null;
  readonly rebuild: () => void;
}): Disposable {
  let pending = false;
  const rebuildIfIdle = () => {
    const ex = o.current();
    if (!pending || !ex || ex.status().activeRuns > 0) return;
    pending = false;
    o.rebuild();
  };
  return o.events.subscribe((channel) => {
    if (channel === 'settings:didChange') {
      const ex = o.current();
      if (!ex) return;
      pending = applyExecutorSettings(ex, o.settings.get()) === 'rebuild';
      rebuildIfIdle();
    } else if (channel === 'runs:didChange' || channel === 'executor:didChangeStatus') {
      // A run ended: a rebuild that waited for it can happen now (after the listeners that are running).
      if (pending) queueMicrotask(rebuildIfIdle);
    }
  });
}

export interface ExecutorHostOptions {
  readonly session: BridgeSession;
  readonly store: Store;
  readonly settings: SettingsService;
  readonly dataDir: string;
  readonly events: BridgeEvents;
  /** Secrets the agent must never see (the API key), read when an executor is made. */
  readonly secrets?: () => Promise<readonly string[]>;
  /** Where an executor that could not be made or stopped is reported. */
  readonly log?: Logger;
}

export interface ExecutorHost {
  readonly port: ExecutorPort;
  current(): Executor | null;
  close(): Promise<void>;
}

/**
 * Runs the embedded executor on whatever the session is connected to: a new one (started) after each
 * switch of connection, the old one stopped first. For hosts without a shell of their own (`postdesk web`).
 */
export function createExecutorHost(o: ExecutorHostOptions): ExecutorHost {
  let ex: Executor | null = null;
  let forward: Disposable | null = null;
  let chain = Promise.resolve();
  const port = executorPortFor(() => ex);
  const log = o.log ?? silentLogger;

  const make = async (client: ApiClient): Promise<Executor> => {
    const s = o.settings.get();
    const { agentType, agent } = chooseAgent(s.agentCommands);
    const offline = o.session.isOffline();
    const confinement = confinementFromSettings(() => o.settings.get(), [o.dataDir]);
    const ex = new Executor({
      api: client,
      store: o.store,
      scope: offline ? 'sandbox' : client.baseUrl,
      dataDir: executorDataDir(o.dataDir),
      name: s.executorName ?? `${hostname()} (postdesk web)`,
      agentType,
      ...(agent ? { agent } : {}),
      folderFor: automationFolderOf(() => o.settings.get()),
      agentFor: automationAgentOf(() => o.settings.get(), confinement, { demo: offline }),
      confinement,
      retention: () => retentionOf(o.settings.get()),
      concurrency: s.concurrency,
      missedRunPolicy: s.missedRunPolicy,
      graceMs: s.graceWindowMinutes * 60_000,
      secrets: [
        ...((await o.secrets?.().catch((error: unknown) => {
          log.warn('the API key could not be read to keep it from agents', { error: errorText(error) });
          return [];
        })) ?? []),
      ],
      media: createCoreMedia({ tools: createSettingsTools(() => toolSettingsOf(o.settings.get())) }),
      logger: log,
    });
    attachMetrics(ex);
    return ex;
  };

  const switchTo = (client: ApiClient | null) => {
    chain = chain.then(async () => {
      const old = ex;
      ex = null;
      forward?.dispose();
      forward = null;
      await old
        ?.stop({ graceMs: 5_000, reason: 'the connection changed' })
        .catch((error: unknown) =>
          log.warn('stopping the previous executor failed', { error: errorText(error) }),
        );
      if (client) {
        try {
          const next = await make(client);
          forward = forwardExecutorEvents(next, o.events);
          ex = next;
          next.start();
        } catch (error) {
          // No usable agent configuration: the executor stays off and its status says stopped.
          ex = null;
          log.warn('the executor is not started', { error: errorText(error) });
        }
      }
      o.events.emit('executor:didChangeStatus', viewStatus(ex));
    });
  };

  const unsubscribe = o.session.onDidSwitch(switchTo);
  if (o.session.current()) switchTo(o.session.current());
  const settingsFollow = followExecutorSettings({
    events: o.events,
    settings: o.settings,
    current: () => ex,
    rebuild: () => switchTo(o.session.current()),
  });

  return {
    port,
    current: () => ex,
    async close() {
      settingsFollow.dispose();
      unsubscribe();
      switchTo(null);
      await chain;
    },
  };
}
