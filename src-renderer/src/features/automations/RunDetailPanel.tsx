import { useEffect, useMemo, useRef } from 'react';
import type { RunDetail, RunStep } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatDateTime, formatTime } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';

interface StepView {
  readonly stepId: string;
  readonly status: RunStep['status'];
  readonly events: readonly RunStep[];
}

/** Events grouped by step, in the order each step first appeared; a step's status is its last non-info event. */
function groupSteps(steps: readonly RunStep[]): StepView[] {
  const order: string[] = [];
  const byId = new Map<string, { status: RunStep['status']; events: RunStep[] }>();
  for (const s of steps) {
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
    return { stepId: id, status: v.status, events: v.events };
  });
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
    <div className="run-detail">
      <div className="run-detail__head">
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
              <li key={g.stepId} className={`timeline__step timeline__step--${g.status}`}>
                <span className="timeline__dot" aria-hidden="true" />
                <div className="timeline__body">
                  <div className="timeline__top">
                    <span className="timeline__name">{g.stepId}</span>
                    <StatusBadge status={g.status === 'started' ? 'running' : g.status} />
                    <span className="faint tabular">{formatTime(g.events[g.events.length - 1]?.at)}</span>
                  </div>
                  {g.events
                    .filter((e) => e.message)
                    .map((e, i) => (
                      <p key={`${e.at}-${i}`} className="timeline__message">
                        {e.message}
                      </p>
                    ))}
                </div>
              </li>
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
