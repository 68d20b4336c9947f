import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AutomationView, ExecutorStatus } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatDateTime, formatRelative } from '../../app/format';
import { replaceRoute, useRoute } from '../../app/router';
import { useNow } from '../../app/use-now';
import { IconBolt, IconPlay, IconRefresh } from '../../components/icons';
import { RefreshButton } from '../../components/RefreshButton';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorAlert } from '../../components/states';
import { useAutomationsStore } from '../../stores/use-automations-store';
import { useExecutorStore } from '../../stores/use-executor-store';
import { useRunsStore } from '../../stores/use-runs-store';
import { toast } from '../../stores/use-toast-store';
import { AutomationEditor } from './AutomationEditor';
import { LocalSetup } from './LocalSetup';
import { RunDetailPanel } from './RunDetailPanel';
import { ScheduleWords } from './schedule/ScheduleWords';
import { ExportButton } from '../export/ExportButton';
import './automations.css';
import { LoadGate } from '../../components/LoadGate';
import { PickList } from '../../components/PickList';
import { BusyButton } from '../../components/BusyButton';

export function AutomationsScreen() {
  const loadAutomations = useAutomationsStore((s) => s.load);
  const { loadExecutor, listenExecutor } = useExecutorStore(
    useShallow((s) => ({ loadExecutor: s.load, listenExecutor: s.listen })),
  );
  const { loadRuns, listenRuns, selectRun } = useRunsStore(
    useShallow((s) => ({ loadRuns: s.load, listenRuns: s.listen, selectRun: s.select })),
  );
  // `#/automations?run=<id>` (a `postdesk://run/<id>` deep link) opens that run's detail, once per visit.
  const linkedRun = useRef(useRoute().params.get('run'));
  useEffect(() => {
    if (linkedRun.current) void selectRun(linkedRun.current);
  }, [selectRun]);

  useEffect(() => {
    void loadAutomations();
    void loadExecutor();
    void loadRuns();
    const offExecutor = listenExecutor();
    const offRuns = listenRuns();
    return () => {
      offExecutor();
      offRuns();
    };
  }, [loadAutomations, loadExecutor, listenExecutor, loadRuns, listenRuns]);

  return (
    <div className="page">
      <PageHeader
        title="Automations"
        subtitle="Scheduled agent runs on this computer, and what each run did."
      />
      <ExportButton kind="runs" />
      <ExecutorCard />
      <AutomationList />
      <RunsSection />
    </div>
  );
}

function ExecutorCard() {
  const { status, busy, actionError, pause, resume, syncNow, load } = useExecutorStore(
    useShallow((s) => ({
      status: s.status,
      busy: s.busy,
      actionError: s.actionError,
      pause: s.pause,
      resume: s.resume,
      syncNow: s.syncNow,
      load: s.load,
    })),
  );
  const e: ExecutorStatus | null = status.data;
  const now = useNow(10_000);
  return (
    <section className="card" aria-labelledby="executor-title">
      <div className="card__header">
        <h2 id="executor-title">Executor</h2>
        {e ? <StatusBadge status={e.state} /> : null}
      </div>
      <div className="card__body">
        <LoadGate state={status} what="the executor’s status" onRetry={load}>
          {e ? (
            <div className="executor">
              <dl className="facts">
                <dt>Name</dt>
                <dd>{e.name ?? <span className="faint">not registered yet</span>}</dd>
                <dt>Last sync</dt>
                <dd>
                  {e.last_sync_at
                    ? `${formatRelative(e.last_sync_at, now)} (${formatDateTime(e.last_sync_at)})`
                    : 'never'}
                </dd>
                <dt>Next sync</dt>
                <dd>{e.next_sync_at ? formatDateTime(e.next_sync_at) : '—'}</dd>
                <dt>Active runs</dt>
                <dd className="tabular">{e.active_runs}</dd>
              </dl>
              <div className="btn-row">
                {e.state === 'paused' || e.state === 'stopped' ? (
                  <BusyButton
                    action="resume"
                    busy={busy}
                    working="Resuming…"
                    className="btn btn--primary"
                    onRun={resume}
                  >
                    Resume
                  </BusyButton>
                ) : (
                  <BusyButton action="pause" busy={busy} working="Pausing…" onRun={pause}>
                    Pause
                  </BusyButton>
                )}
                <button type="button" className="btn" disabled={busy !== null} onClick={() => void syncNow()}>
                  <IconRefresh size={14} /> {busy === 'sync' ? 'Syncing…' : 'Sync now'}
                </button>
              </div>
            </div>
          ) : null}
        </LoadGate>
        {e?.last_error ? (
          <p className="alert alert--error executor__error" role="status">
            {e.last_error}
          </p>
        ) : null}
        {actionError ? <ErrorAlert error={actionError} /> : null}
      </div>
    </section>
  );
}

function AutomationRow({
  a,
  onEdit,
}: {
  readonly a: AutomationView;
  /** Absent: this connection does not edit automations here. */
  readonly onEdit?: (() => void) | undefined;
}) {
  const { starting, runNow } = useAutomationsStore(
    useShallow((s) => ({ starting: s.starting, runNow: s.runNow })),
  );
  const selectRun = useRunsStore((s) => s.select);
  const now = useNow(10_000);
  const start = async () => {
    const r = await runNow(a.id);
    if (!r.ok) {
      toast('error', `${a.name} did not start: ${describeError(r.error)}`);
      return;
    }
    void selectRun(r.value.id);
    replaceRoute('automations', { run: r.value.id });
    document.getElementById('runs-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <li className="automation">
      <div className="automation__main">
        <div className="automation__title">
          <span className="automation__name">{plainName(a.name)}</span>
          <StatusBadge status={a.status} />
          <span className="badge badge--plain">
            {a.execution_mode === 'auto' ? 'auto publish' : 'drafts'}
          </span>
        </div>
        <div className="automation__meta muted">
          <ScheduleWords cron={a.schedule.cron} timezone={a.schedule.timezone} />
          {a.targets.length > 0 ? (
            <span className="automation__targets">
              {a.targets.map((t) => (
                <PlatformMark key={t.social_account_id} platform={t.platform} />
              ))}
            </span>
          ) : null}
        </div>
        <LocalSetup automation={a} />
      </div>
      <div className="automation__next">
        <span className="faint">Next</span>
        <span className="tabular">
          {a.next_occurrence ? (
            <>
              {formatDateTime(a.next_occurrence)}{' '}
              <span className="faint">({formatRelative(a.next_occurrence, now)})</span>
            </>
          ) : (
            <span className="faint">{a.status === 'active' ? 'not scheduled' : a.status}</span>
          )}
        </span>
      </div>
      <button
        type="button"
        className="btn btn--small"
        disabled={a.status !== 'active' || starting !== null}
        onClick={() => void start()}
        aria-label={`Run now: ${plainName(a.name)}`}
      >
        <IconPlay size={12} /> {starting === a.id ? 'Starting…' : 'Run now'}
      </button>
      {onEdit ? (
        <button
          type="button"
          className="btn btn--small"
          disabled={a.status === 'removed'}
          onClick={onEdit}
          aria-label={`Edit ${a.name}`}
        >
          Edit
        </button>
      ) : null}
    </li>
  );
}

function AutomationList() {
  const { automations, load, canEdit } = useAutomationsStore(
    useShallow((s) => ({ automations: s.automations, load: s.load, canEdit: s.canEdit })),
  );
  // The automation in the editor: `new`, one of the list, or none.
  const [editing, setEditing] = useState<AutomationView | 'new' | null>(null);
  const list = automations.data ?? [];
  return (
    <section className="card" aria-labelledby="automations-title">
      <div className="card__header">
        <h2 id="automations-title">Automations</h2>
        <div className="btn-row">
          {canEdit ? (
            <button type="button" className="btn btn--small btn--primary" onClick={() => setEditing('new')}>
              New automation
            </button>
          ) : null}
          <RefreshButton onRefresh={() => void load()} />
        </div>
      </div>
      <Freshness state={automations} what="the automations" onRetry={load} />
      {editing !== null ? (
        <AutomationEditor automation={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <LoadGate state={automations} what="automations" onRetry={load}>
        {list.length === 0 ? (
          <EmptyState title="No automations" icon={<IconBolt size={20} />}>
            {canEdit
              ? 'Create one with New automation to try it offline; agents can also create them over MCP.'
              : 'Automations are created in the dashboard or over MCP; they appear here once synced.'}
          </EmptyState>
        ) : (
          <ul className="list" aria-label="Automations list">
            {list.map((a) => (
              <AutomationRow key={a.id} a={a} onEdit={canEdit ? () => setEditing(a) : undefined} />
            ))}
          </ul>
        )}
      </LoadGate>
    </section>
  );
}

/** Brings the selected run into view (a deep link may select one far down the list). */
const scrollIntoView = (el: HTMLLIElement | null) => el?.scrollIntoView({ block: 'nearest' });

function RunsSection() {
  const { runs, selectedId, detail, select, load } = useRunsStore(
    useShallow((s) => ({
      runs: s.runs,
      selectedId: s.selectedId,
      detail: s.detail,
      select: s.select,
      load: s.load,
    })),
  );
  const list = runs.data ?? [];
  return (
    <section className="card" aria-labelledby="runs-title">
      <div className="card__header">
        <h2 id="runs-title">Runs</h2>
        <RefreshButton onRefresh={() => void load()} />
      </div>
      <Freshness state={runs} what="the runs" onRetry={load} />
      <div className="runs">
        <div className="runs__list">
          <LoadGate state={runs} what="runs" onRetry={load}>
            <PickList
              label="Run history"
              items={list}
              picked={selectedId}
              pickedRef={scrollIntoView}
              onPick={(r) => {
                void select(r.id);
                // The selected run is in the address: a reload or a copied link opens it again.
                replaceRoute('automations', { run: r.id });
              }}
              itemClass="run-item"
              empty={
                <EmptyState title="No runs yet">
                  Runs appear when an automation falls due or you start one.
                </EmptyState>
              }
            >
              {(r) => (
                <>
                  <span className="run-item__top">
                    <span className="run-item__name">
                      {r.automation_name ? plainName(r.automation_name) : 'An automation'}
                    </span>
                    <StatusBadge status={r.state} />
                  </span>
                  <span className="faint run-item__when">
                    {formatDateTime(r.started_at ?? r.scheduled_for)}
                  </span>
                  {r.reason ? <span className="run-item__reason">{r.reason}</span> : null}
                </>
              )}
            </PickList>
          </LoadGate>
        </div>
        <div className="runs__detail" aria-label="Run detail" role="region">
          {!selectedId ? (
            <EmptyState title="Pick a run">
              Its steps, logs and outcome appear here, live while it runs.
            </EmptyState>
          ) : (
            <LoadGate state={detail} what="this run" onRetry={() => select(selectedId)}>
              {detail.data ? <RunDetailPanel detail={detail.data} /> : null}
            </LoadGate>
          )}
        </div>
      </div>
    </section>
  );
}
