type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info' | 'accent';

const TONES: Readonly<Record<string, Tone>> = {
  draft: 'neutral',
  scheduled: 'info',
  retry_scheduled: 'warning',
  posted: 'success',
  published: 'success',
  failed: 'danger',
  publishing: 'info',
  pending: 'neutral',
  claimed: 'info',
  running: 'accent',
  completed: 'success',
  skipped: 'warning',
  missed: 'warning',
  active: 'success',
  paused: 'warning',
  removed: 'neutral',
  idle: 'success',
  stopped: 'neutral',
  submitted: 'success',
  partial: 'warning',
  created: 'success',
  started: 'accent',
  info: 'info',
};

const LABELS: Readonly<Record<string, string>> = {
  retry_scheduled: 'retrying',
};

/** A status word with a colour that matches its meaning; unknown statuses stay neutral. */
export function StatusBadge({ status, label }: { readonly status: string; readonly label?: string }) {
  const tone = TONES[status] ?? 'neutral';
  return (
    <span className={`badge${tone === 'neutral' ? '' : ` badge--${tone}`}`}>
      {label ?? LABELS[status] ?? status.replace(/_/g, ' ')}
    </span>
  );
}
