import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { ExecutorMetrics } from '../../../../src-shared/ipc';
import { formatDateTime, formatRelative, plural } from '../../app/format';
import { useNow } from '../../app/use-now';
import { StatusBadge } from '../../components/StatusBadge';
import { useExecutorStore } from '../../stores/use-executor-store';
import { SettingsCard } from './SettingsCard';
import { LoadGate } from '../../components/LoadGate';
import { DataTable } from '../../components/DataTable';

/** How often the card asks for fresh figures while it is on screen. */
const REFRESH_MS = 15_000;

/** What monitoring tools read from the daemon, for a person: runs per automation, start delay, last sync. */
export function ExecutorFiguresCard() {
  const { metrics, loadMetrics } = useExecutorStore(useShallow((s) => pick(s, 'metrics', 'loadMetrics')));
  useEffect(() => {
    void loadMetrics();
    const timer = setInterval(() => void loadMetrics(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [loadMetrics]);

  const m = metrics.data;
  return (
    <SettingsCard
      id="executor-figures"
      title="Executor activity"
      body="form-stack"
      badge={
        m ? (
          <StatusBadge
            status={m.healthy ? 'completed' : 'failed'}
            label={m.healthy ? 'in sync' : 'not in sync'}
          />
        ) : null
      }
    >
      <LoadGate state={metrics} what="the executor’s figures" onRetry={loadMetrics}>
        {m ? (
          <Figures m={m} />
        ) : (
          <p className="muted">The executor is not running, so it has nothing to report yet.</p>
        )}
      </LoadGate>
    </SettingsCard>
  );
}

function Figures({ m }: { readonly m: ExecutorMetrics }) {
  const now = useNow(30_000);
  const started = m.automations.reduce((n, a) => n + a.started, 0);
  const onTime = m.start_delay.buckets.find((b) => b.le_seconds === 1)?.count ?? 0;
  return (
    <>
      <dl className="facts">
        <dt>Last sync</dt>
        <dd title={m.last_sync_at ? formatDateTime(m.last_sync_at) : undefined}>
          {m.last_sync_at ? formatRelative(m.last_sync_at, now) : 'Not yet'}
          {m.healthy ? '' : ' · the service has not answered recently'}
        </dd>
        <dt>Agents running</dt>
        <dd>{m.running_agents}</dd>
        <dt>Started on time</dt>
        <dd>
          {m.start_delay.count === 0
            ? 'No run started yet'
            : `${onTime} of ${plural(m.start_delay.count, 'run')} within a second of the schedule` +
              (m.start_delay.mean_seconds !== null
                ? ` · ${formatSeconds(m.start_delay.mean_seconds)} late on average`
                : '')}
        </dd>
      </dl>
      {m.automations.length > 0 ? (
        <DataTable
          label="Runs by automation"
          wrap="box"
          columns={['Automation', 'Started', 'Completed', 'Failed', 'Not run']}
        >
          {m.automations.map((a) => (
            <tr key={a.automation_id}>
              <th scope="row">{a.name ?? 'An automation without a name'}</th>
              <td>{a.started}</td>
              <td>{a.completed}</td>
              <td>{a.failed}</td>
              <td>{a.missed}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <p className="field__hint">
        Counted since the executor started on this computer ({plural(started, 'run')} so far). “Not run”
        includes occurrences another computer ran.
      </p>
    </>
  );
}

function formatSeconds(s: number): string {
  if (s < 1) return 'under a second';
  if (s < 90) return `${Math.round(s)} s`;
  return `${Math.round(s / 60)} min`;
}
