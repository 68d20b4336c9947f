import { useEffect, useMemo, useRef } from 'react';
import type { RunDetail, RunStep } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatDateTime, formatTime } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';

interface StepView {
  readonly stepId: string;
  readonly status: RunStep['status'];
  readonly events: readonly RunStep[];
  /** The agent's own steps (its `::step` lines), which happen inside the executor's `agent` step. */
  readonly inner: readonly StepView[];
}

/** Events grouped by step, in the order each step first appeared; a step's status is its last non-info event. */
function groupSteps(steps: readonly RunStep[]): StepView[] {
  const build = (list: readonly RunStep[]): StepView[] => {
    const order: string[] = [];
    const byId = new Map<string, { status: RunStep['status']; events: RunStep[] }>();
    for (const s of list) {
      let v = byId.get(s.step_id);
      if (!v) {
        v = { status: s.status, events: [] };
        byId.set(s.step_id, v);
        order.push(s.step_id);
      }
      v.events.push(s);
      if (s.status !== 'info') v.status = s.status;
    }
    return order.map((id) => {
      const v = byId.get(id) as { status: RunStep['status']; events: RunStep[] };
      return { stepId: id, status: v.status, events: v.events, inner: [] };
    });
  };
  const own = build(steps.filter((s) => s.source !== 'agent'));
  const agents = build(steps.filter((s) => s.source === 'agent'));
  if (agents.length === 0) return own;
  // The agent's steps go inside its `agent` step, in their own order; an agent step with no home stays last.
  const host = own.find((g) => g.stepId === 'agent');
  if (!host) return [...own, ...agents];
  return own.map((g) => (g === host ? { ...g, inner: agents } : g));
}

const ACTIVE = new Set(['claimed', 'running', 'pending']);

export function RunDetailPanel({ detail }: { readonly detail: RunDetail }) {
  const { run, steps, logs } = detail;
  const grouped = useMemo(() => groupSteps(steps), [steps]);
  const logRef = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [logs.length]);
  const live = ACTIVE.has(run.state);

  return (
    <div className="stack run-detail">
      <div className="row row--top row--ends run-detail__head">
        <div>
          <h2>{run.automation_name ? plainName(run.automation_name) : 'Run'}</h2>
          <p className="muted">
            {run.scheduled_for ? `Due ${formatDateTime(run.scheduled_for)}` : 'Started by hand'}
            {run.started_at ? ` · started ${formatDateTime(run.started_at)}` : ''}
            {run.finished_at ? ` · finished ${formatDateTime(run.finished_at)}` : ''}
          </p>
        </div>
        <span role="status" aria-label={`Run ${run.state}`}>
          <StatusBadge status={run.state} />
        </span>
      </div>
      {run.reason ? (
        <div className={`alert ${run.state === 'failed' ? 'alert--error' : 'alert--warning'}`} role="note">
          <div>
            <p className="alert__title">
              {run.state === 'missed' ? 'Why it did not run' : 'Why it ended this way'}
            </p>
            <p>{run.reason}</p>
          </div>
        </div>
      ) : null}

      <section aria-labelledby="run-steps-title">
        <h3 id="run-steps-title" className="section-title">
          Steps {live ? <span className="live-dot" aria-label="live" /> : null}
        </h3>
        {grouped.length === 0 ? (
          <p className="muted">{live ? 'Waiting for the first step…' : 'This run reported no steps.'}</p>
        ) : (
          <ol className="timeline" aria-label="Steps" aria-live="polite">
            {grouped.map((g) => (
              <StepItem key={g.stepId} step={g} reason={run.reason} />
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="run-logs-title">
        <h3 id="run-logs-title" className="section-title">
          Logs
        </h3>
        {logs.length === 0 ? (
          <p className="muted">No output.</p>
        ) : (
          <pre className="run-logs" ref={logRef} tabIndex={0} aria-label="Run logs">
            {logs.map((l, i) => (
              <span key={`${l.at}-${i}`} className={`run-logs__line run-logs__line--${l.stream}`}>
                <span className="run-logs__at">{formatTime(l.at)}</span> {l.text}
                {'\n'}
              </span>
            ))}
          </pre>
        )}
      </section>
    </div>
  );
}

/**
 * One step: its status, its messages (the one that only repeats the run's reason, shown above, is left out,
 * so the error sentence appears once), and the agent's own steps inside it.
 */
function StepItem({ step, reason }: { readonly step: StepView; readonly reason: string | null }) {
  const messages = step.events.filter((e) => e.message && e.message !== reason);
  return (
    <li className={`timeline__step timeline__step--${step.status}`}>
      <span className="timeline__dot" aria-hidden="true" />
      <div className="timeline__body">
        <div className="timeline__top">
          <span className="timeline__name">{step.stepId}</span>
          <StatusBadge status={step.status === 'started' ? 'running' : step.status} />
          <span className="faint tabular">{formatTime(step.events[step.events.length - 1]?.at)}</span>
        </div>
        {messages.map((e, i) => (
          <p key={`${e.at}-${i}`} className="timeline__message">
            {e.message}
          </p>
        ))}
        {step.inner.length > 0 ? (
          <ol className="timeline timeline--inner" aria-label={`Steps of ${step.stepId}`}>
            {step.inner.map((g) => (
              <StepItem key={g.stepId} step={g} reason={reason} />
            ))}
          </ol>
        ) : null}
      </div>
    </li>
  );
}
