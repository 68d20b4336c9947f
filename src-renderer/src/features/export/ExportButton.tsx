import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ExportFormat, ExportWhat } from '../../../../src-shared/ipc';
import { plural } from '../../app/format';
import { ErrorAlert } from '../../components/states';
import { useAnalyticsStore } from '../../stores/use-analytics-store';
import { useCalendarStore } from '../../stores/use-calendar-store';
import { useExportStore } from '../../stores/use-export-store';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { toast } from '../../stores/use-toast-store';
import './export.css';

type Kind = ExportWhat['kind'];

const NOUN: Readonly<Record<Kind, readonly [string, string]>> = {
  posts: ['post', 'posts'],
  calendar: ['post', 'posts'],
  analytics: ['row', 'rows'],
  runs: ['run', 'runs'],
};
const LABEL: Readonly<Record<Kind, string>> = {
  posts: 'Export posts',
  calendar: 'Export the range on screen',
  analytics: 'Export these figures',
  runs: 'Export run history',
};

/** What the screen shows now: its store's filters, as the export's request. */
function useWhat(kind: Kind): ExportWhat | null {
  // The Posts screen lists and filters through the post-groups store: its filters are what the person sees.
  const posts = usePostGroupsStore((s) => s.filters);
  const range = useCalendarStore((s) => s.range);
  const analytics = useAnalyticsStore((s) => s.filters);
  switch (kind) {
    case 'posts':
      return {
        kind,
        ...(posts.status !== 'all' ? { status: posts.status } : {}),
        ...(posts.platform !== 'all' ? { platform: posts.platform } : {}),
      };
    case 'calendar':
      return range ? { kind, start: range.start, end: range.end } : null;
    case 'analytics':
      return {
        kind,
        query: {
          ...(analytics.platform !== 'all' ? { platform: analytics.platform } : {}),
          ...(analytics.accountId !== 'all' ? { account_id: analytics.accountId } : {}),
          ...(analytics.start ? { start_date: analytics.start } : {}),
          ...(analytics.end ? { end_date: analytics.end } : {}),
          limit: 100,
        },
      };
    case 'runs':
      return { kind };
  }
}

/** Hands a file the host prepared to the browser, which saves it where the person's browser saves downloads. */
function download(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The Export control of a screen: CSV (opens in spreadsheets and re-imports in Bulk as an update) or JSON. The
 * desktop app asks where to save in its own dialog; in a browser the file downloads. Progress shows while it runs.
 */
export function ExportButton({ kind }: { readonly kind: Kind }) {
  const what = useWhat(kind);
  const { running, error, run, dismiss, listen } = useExportStore(
    useShallow((s) => ({
      running: s.running[kind],
      error: s.errors[kind],
      run: s.run,
      dismiss: s.dismiss,
      listen: s.listen,
    })),
  );
  useEffect(() => listen(), [listen]);
  const [one, many] = NOUN[kind];

  const start = async (format: ExportFormat) => {
    if (!what) return;
    const r = await run(what, format);
    if (!r || r.outcome === 'cancelled') return;
    if (r.outcome === 'download') download(r.url, r.name);
    toast('success', `Exported ${plural(r.records, one, many)} to ${r.name}.`);
  };

  return (
    <div className="export-bar">
      <div className="row" role="group" aria-label={LABEL[kind]}>
        <span className="muted">Export</span>
        {(['csv', 'json'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="btn btn--small"
            disabled={!what || Boolean(running)}
            aria-label={`${LABEL[kind]} as ${format.toUpperCase()}`}
            onClick={() => void start(format)}
          >
            {running?.format === format ? 'Exporting…' : format.toUpperCase()}
          </button>
        ))}
        <span className="muted tabular" role="status">
          {running ? `${plural(running.records, one, many)} written…` : ''}
        </span>
      </div>
      {error ? (
        <div className="row row--top export-bar__error">
          <ErrorAlert error={error} title="The export did not finish" />
          <button type="button" className="btn btn--small btn--ghost" onClick={() => dismiss(kind)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
