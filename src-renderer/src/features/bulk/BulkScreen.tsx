import { Fragment, useEffect, useRef, useState, type DragEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { BulkRow, BulkSubmission } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatDateTime, plural } from '../../app/format';
import { hrefOf } from '../../app/router';
import { IconLayers, IconRefresh, IconUpload } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { Progress } from '../../components/Progress';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorAlert, ErrorState, LoadingState } from '../../components/states';
import { useAppStore } from '../../stores/use-app-store';
import { useBulkStore } from '../../stores/use-bulk-store';
import { toast } from '../../stores/use-toast-store';
import './bulk.css';
import { LoadGate } from '../../components/LoadGate';
import { DataTable } from '../../components/DataTable';

/** Beyond this many rows the table shows rows with errors first and stops, to stay quick. */
const TABLE_ROWS = 300;

export function BulkScreen() {
  const s = useBulkStore(
    useShallow((st) =>
      pick(
        st,
        'plan',
        'submitting',
        'progress',
        'batchesSent',
        'submission',
        'submitError',
        'planFrom',
        'planPicked',
        'resetPlan',
        'submit',
        'loadHistory',
        'listen',
        'queue',
        'setQueue',
      ),
    ),
  );
  const { loadHistory, listen } = s;
  const fileDialog = useAppStore((st) => st.info?.file_dialog ?? false);
  useEffect(() => {
    void loadHistory();
    return listen();
  }, [loadHistory, listen]);

  const readFile = async (file: File | undefined) => {
    if (file) await s.planFrom(file);
  };

  const plan = s.plan.data;
  const updating = plan?.mode === 'update';
  return (
    <div className="page">
      <PageHeader
        title="Bulk import"
        subtitle="Drop a CSV of posts: every row is checked and planned before anything is sent."
        actions={
          plan ? (
            <button type="button" className="btn" onClick={s.resetPlan}>
              Start over
            </button>
          ) : null
        }
      />

      {!plan ? (
        <label className="checkbox">
          <input type="checkbox" checked={s.queue} onChange={(e) => s.setQueue(e.target.checked)} />
          Fill my queue: each row goes to its accounts' next free posting times (the file's times are not
          read)
        </label>
      ) : null}
      {!plan ? (
        <CsvDrop
          loading={s.plan.loading}
          onFile={(f) => void readFile(f)}
          onPick={fileDialog ? () => void s.planPicked() : undefined}
        />
      ) : null}
      {s.plan.error ? <ErrorAlert error={s.plan.error} title="This file cannot be imported" /> : null}

      {plan ? (
        <>
          <section className="card" aria-labelledby="bulk-plan-title">
            <div className="card__header">
              <h2 id="bulk-plan-title">
                {s.submission?.already_imported || (!s.submission && plan.imported_before)
                  ? 'Imported before'
                  : s.submission
                    ? 'Imported'
                    : s.submitting
                      ? 'Sending'
                      : 'Dry run'}
                : {plan.source_name ? plainName(plan.source_name) : 'CSV'}
              </h2>
              <span className="muted">
                {s.submission?.already_imported
                  ? 'Nothing was sent again.'
                  : s.submission
                    ? 'Sent to the service.'
                    : s.submitting
                      ? 'Sending to the service…'
                      : s.submitError
                        ? 'Not all of it was sent.'
                        : plan.imported_before
                          ? `These posts were imported ${formatDateTime(plan.imported_before.created_at)}: Submit reports that import and sends nothing again.`
                          : 'Nothing has been sent yet.'}
              </span>
            </div>
            <div className="card__body form-stack">
              <dl className="figures stats" aria-label="Plan summary">
                <div className="stat">
                  <dt>Rows</dt>
                  <dd>{plan.rows.length}</dd>
                </div>
                <div className="stat stat--ok">
                  <dt>{updating ? 'To update' : 'Valid'}</dt>
                  <dd>{plan.valid_count}</dd>
                </div>
                {updating ? (
                  <div className="stat">
                    <dt>Unchanged</dt>
                    <dd>{plan.unchanged_count ?? 0}</dd>
                  </div>
                ) : null}
                <div className={`stat${plan.invalid_count > 0 ? ' stat--bad' : ''}`}>
                  <dt>With errors</dt>
                  <dd>{plan.invalid_count}</dd>
                </div>
                <div className="stat">
                  <dt>Batches</dt>
                  <dd>{plan.batches.length}</dd>
                </div>
              </dl>
              {updating ? (
                <p className="muted">
                  This file names existing posts (it has a post_id column), so it updates them: only what
                  differs from each post is sent, and no post is created.
                </p>
              ) : null}
              {plan.batches.length > 0 ? (
                <ol className="list-chips batch-plan" aria-label="Batches">
                  {plan.batches.map((b) => (
                    <li key={b.index}>
                      Batch {b.index + 1}: {plural(b.item_count, updating ? 'update' : 'post')}
                    </li>
                  ))}
                </ol>
              ) : null}
              {plan.file_issues && plan.file_issues.length > 0 ? (
                <div className="alert alert--error" role="alert">
                  <div>
                    <p className="alert__title">Nothing can be sent until the file is fixed</p>
                    <ul className="plain-list" aria-label="Problems with the file">
                      {plan.file_issues.map((i) => (
                        <li key={`${i.field}-${i.message}`}>
                          {i.message.charAt(0).toUpperCase()}
                          {i.message.slice(1)}
                        </li>
                      ))}
                    </ul>
                    <p>Fix the file, then drop it again.</p>
                  </div>
                </div>
              ) : plan.invalid_count > 0 ? (
                <p className="alert alert--warning">
                  {plural(plan.invalid_count, 'row')} with errors will be left out. Fix them in the file and
                  drop it again, or submit the valid rows now.
                </p>
              ) : null}
              {s.submitting || s.progress ? (
                <div className="form-stack bulk__progress">
                  <Progress
                    label="Bulk submission"
                    value={s.progress?.items_done ?? 0}
                    max={s.progress?.items_total ?? plan.valid_count}
                    state={s.submission ? 'done' : 'active'}
                  />
                  <span className="muted tabular" role="status">
                    {s.progress
                      ? `${Math.min(s.batchesSent, plan.batches.length)} of ${plural(plan.batches.length, 'batch', 'batches')} sent · ${s.progress.items_done} of ${s.progress.items_total} posts`
                      : 'Starting…'}
                  </span>
                </div>
              ) : null}
              {s.submission ? (
                <div
                  className={`alert ${s.submission.failed_count > 0 ? 'alert--warning' : 'alert--success'}`}
                  role="status"
                >
                  {s.submission.updated_count !== undefined
                    ? `Updated ${plural(s.submission.updated_count, 'post')}: ${s.submission.failed_count} failed, ${s.submission.unchanged_count ?? 0} unchanged.${s.submission.unknown_count ? ` ${plural(s.submission.unknown_count, 'change')} may not have been made.` : ''}`
                    : s.submission.already_imported
                      ? `This file was imported already, so nothing was sent again: its ${plural(s.submission.batches.length, 'batch', 'batches')} stand at ${s.submission.created_count} created, ${s.submission.failed_count} failed.`
                      : `Submitted ${plural(s.submission.batches.length, 'batch', 'batches')}: ${s.submission.created_count} created, ${s.submission.failed_count} failed.`}
                </div>
              ) : null}
              {s.submission?.failures?.length ? (
                <ul className="plain-list" aria-label="Rows not updated">
                  {s.submission.failures.map((f) => (
                    <li key={f.row}>
                      Row {f.row}: {f.message}
                    </li>
                  ))}
                </ul>
              ) : null}
              {s.submitError ? <ErrorAlert error={s.submitError} title="Submission stopped" /> : null}
              <div className="btn-row btn-row--end">
                {s.submission ? (
                  <button type="button" className="btn" onClick={s.resetPlan}>
                    Import another CSV
                  </button>
                ) : (
                  <button
                    type="button"
                    className="btn btn--primary"
                    disabled={plan.valid_count === 0 || s.submitting}
                    onClick={() => void s.submit()}
                  >
                    {s.submitting
                      ? 'Submitting…'
                      : updating
                        ? `Update ${plural(plan.valid_count, 'post')}`
                        : `Submit ${plural(plan.valid_count, 'post')} in ${plural(plan.batches.length, 'batch', 'batches')}`}
                  </button>
                )}
              </div>
            </div>
          </section>
          {plan.rows.length > 0 ? (
            <ValidationTable
              rows={plan.rows}
              fileBlocked={(plan.file_issues?.length ?? 0) > 0}
              outcomes={s.submission?.rows}
            />
          ) : null}
        </>
      ) : null}

      <BatchHistory />
    </div>
  );
}

function CsvDrop({
  loading,
  onFile,
  onPick,
}: {
  readonly loading: boolean;
  readonly onFile: (f: File | undefined) => void;
  /** Set where the host has its own file dialog: "Choose a CSV" opens that instead of the browser's. */
  readonly onPick?: (() => void) | undefined;
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    onFile(e.dataTransfer.files[0]);
  };
  return (
    <div
      className={`drop-zone csv-drop card${over ? ' drop-zone--over' : ''}`}
      role="group"
      aria-label="CSV drop zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {loading ? (
        <LoadingState label="Checking rows…" />
      ) : (
        <>
          <IconUpload size={24} />
          <p className="csv-drop__title">Drop a CSV file here</p>
          <p className="muted csv-drop__hint">
            One post per row: <code>caption</code>, <code>targets</code> (<code>platform:account_id</code>,
            ids on the <a href={hrefOf('accounts')}>Accounts</a> screen), <code>media</code>, and{' '}
            <code>scheduled_at</code> with a time zone, or <code>action</code> draft. Bulk cannot publish
            immediately.
          </p>
          <button type="button" className="btn" onClick={() => (onPick ? onPick() : input.current?.click())}>
            Choose a CSV
          </button>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv,.json,application/json"
            hidden
            aria-label="Choose a CSV file"
            onChange={(e) => {
              onFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </>
      )}
    </div>
  );
}

function ValidationTable({
  rows,
  fileBlocked,
  outcomes,
}: {
  readonly rows: readonly BulkRow[];
  /** The file as a whole has problems: rows were not checked one by one. */
  readonly fileBlocked: boolean;
  /** After Submit: each row's real outcome, as the service answered it. */
  readonly outcomes?: BulkSubmission['rows'] | undefined;
}) {
  const outcomeOf = new Map((outcomes ?? []).map((o) => [o.row, o]));
  const [onlyErrors, setOnlyErrors] = useState(false);
  const sorted = onlyErrors ? rows.filter((r) => !r.ok) : rows;
  const shown =
    sorted.length > TABLE_ROWS
      ? [...sorted].sort((a, b) => Number(a.ok) - Number(b.ok)).slice(0, TABLE_ROWS)
      : sorted;
  return (
    <section className="card" aria-labelledby="bulk-rows-title">
      <div className="card__header">
        <h2 id="bulk-rows-title">Rows</h2>
        <label className="checkbox">
          <input type="checkbox" checked={onlyErrors} onChange={(e) => setOnlyErrors(e.target.checked)} />
          Only rows with errors
        </label>
      </div>
      <DataTable
        label="Validation"
        wrap="box"
        columns={['Row', 'Caption', 'Action', 'Scheduled (local)', 'Targets', 'Media', 'Result']}
      >
        {shown.map((r) => (
          <tr key={r.line} className={r.issues.length > 0 ? 'row--error' : undefined}>
            <td className="tabular" title={`Line ${r.line} of the file`}>
              {r.row ?? r.line}
            </td>
            <td className="bulk__caption" title={r.caption ?? undefined}>
              {r.caption ?? <span className="faint">—</span>}
            </td>
            <td>
              {r.action ??
                (r.changes ? (r.changes.length ? `update ${r.changes.join(', ')}` : 'unchanged') : '—')}
            </td>
            <td className="tabular nowrap">{r.scheduled_at ? formatDateTime(r.scheduled_at) : '—'}</td>
            <td className="tabular">{r.target_count}</td>
            <td className="tabular">{r.media_count}</td>
            <td>
              {r.row !== undefined && outcomeOf.has(r.row) ? (
                <RowOutcome outcome={outcomeOf.get(r.row)!} />
              ) : r.ok ? (
                <>
                  <StatusBadge status="created" label="ok" />
                  {r.warnings?.length ? (
                    <ul className="row-issues row-issues--warn" aria-label="Warnings">
                      {r.warnings.map((i) => (
                        <li key={`${i.field}-${i.message}`}>
                          <strong>{i.field}</strong>: {i.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </>
              ) : r.issues.length === 0 ? (
                <span className="muted">
                  {fileBlocked ? 'Not checked: fix the file first' : 'Not accepted'}
                </span>
              ) : (
                <ul className="row-issues">
                  {r.issues.map((i) => (
                    <li key={`${i.field}-${i.message}`}>
                      <strong>{i.field}</strong>: {i.message}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {sorted.length > shown.length ? (
        <p className="card__body muted">
          Showing {shown.length} of {sorted.length} rows (rows with errors first).
        </p>
      ) : null}
    </section>
  );
}

/** A row after Submit: created, or failed with the service's reason in words, or still waiting for an answer. */
function RowOutcome({ outcome }: { readonly outcome: NonNullable<BulkSubmission['rows']>[number] }) {
  if (outcome.status === 'created') return <StatusBadge status="created" label="created" />;
  if (outcome.status === 'pending') return <StatusBadge status="pending" label="not confirmed yet" />;
  return (
    <>
      <StatusBadge status="failed" label="failed" /> <span className="row-issues">{outcome.reason}</span>
    </>
  );
}

function BatchHistory() {
  const { history, inspected, resubmitting, loadHistory, inspect, resubmitFailed } = useBulkStore(
    useShallow((st) => ({
      history: st.history,
      inspected: st.inspected,
      resubmitting: st.resubmitting,
      loadHistory: st.loadHistory,
      inspect: st.inspect,
      resubmitFailed: st.resubmitFailed,
    })),
  );
  const [open, setOpen] = useState<string | null>(null);
  const batches = history.data;

  const toggle = (id: string) => {
    if (open === id) return setOpen(null);
    setOpen(id);
    void inspect(id);
  };

  return (
    <section className="card" aria-labelledby="bulk-history-title">
      <div className="card__header">
        <h2 id="bulk-history-title">Batch history</h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => void loadHistory()}>
          <IconRefresh size={14} /> Refresh
        </button>
      </div>
      <LoadGate state={history} what="the batches" onRetry={loadHistory} freshness>
        {!batches || batches.length === 0 ? (
          <EmptyState title="No batches yet" icon={<IconLayers size={20} />}>
            Submitted CSV imports appear here with each post's result.
          </EmptyState>
        ) : (
          <DataTable
            label="Batches"
            wrap="tall"
            columns={[
              'Submitted',
              'Source',
              'Posts',
              'Created',
              'Failed',
              'State',
              <span className="visually-hidden">Actions</span>,
            ]}
          >
            {batches.map((b) => {
              const detail = inspected[b.batch_id];
              return (
                <Fragment key={b.batch_id}>
                  <tr>
                    <td className="tabular nowrap">{formatDateTime(b.created_at)}</td>
                    <td>{b.source_name ? plainName(b.source_name) : <span className="faint">—</span>}</td>
                    <td className="tabular">{b.total}</td>
                    <td className="tabular">{b.created_count}</td>
                    <td className="tabular">{b.failed_count}</td>
                    <td>
                      <StatusBadge status={b.state} />
                    </td>
                    <td>
                      <div className="btn-row btn-row--end">
                        <button
                          type="button"
                          className="btn btn--small btn--ghost"
                          aria-expanded={open === b.batch_id}
                          onClick={() => toggle(b.batch_id)}
                        >
                          {open === b.batch_id ? 'Hide' : 'Details'}
                        </button>
                        {b.failed_count > 0 ? (
                          <button
                            type="button"
                            className="btn btn--small"
                            disabled={resubmitting !== null}
                            onClick={() =>
                              void resubmitFailed(b.batch_id).then(
                                (r) =>
                                  r &&
                                  toast(
                                    'success',
                                    `Resubmitted: ${r.created_count} created, ${r.failed_count} failed.`,
                                  ),
                              )
                            }
                          >
                            {resubmitting === b.batch_id
                              ? 'Resubmitting…'
                              : `Resubmit ${b.failed_count} failed`}
                          </button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                  {open === b.batch_id ? (
                    <tr className="batch-detail">
                      <td colSpan={7}>
                        {!detail || (detail.loading && !detail.data) ? (
                          <LoadingState label="Loading results…" />
                        ) : detail.error && !detail.data ? (
                          <ErrorState error={detail.error} onRetry={() => void inspect(b.batch_id)} />
                        ) : detail.data ? (
                          <ul
                            className="batch-items"
                            aria-label={`Results of batch ${b.batch_id.slice(0, 8)}`}
                          >
                            {detail.data.items.map((it) => (
                              <li key={it.item_key} className="batch-item">
                                <span className="tabular faint batch-item__index">
                                  Row {/^row-(\d+)$/.exec(it.item_key)?.[1] ?? it.index + 1}
                                </span>
                                <StatusBadge status={it.status} />
                                <span className={it.error ? 'batch-item__error' : 'muted'}>
                                  {it.error ?? plural(it.social_post_ids.length, 'delivery', 'deliveries')}
                                </span>
                              </li>
                            ))}
                            {detail.data.total > detail.data.items.length ? (
                              <li className="muted">
                                …and {detail.data.total - detail.data.items.length} more
                              </li>
                            ) : null}
                          </ul>
                        ) : null}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </DataTable>
        )}
      </LoadGate>
    </section>
  );
}
