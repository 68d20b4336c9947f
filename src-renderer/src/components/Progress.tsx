/** A determinate bar; labelled so a screen reader and a test can read how far it is. */
export function Progress({
  value,
  max,
  label,
  state = 'active',
}: {
  readonly value: number;
  readonly max: number;
  readonly label: string;
  readonly state?: 'active' | 'done' | 'error';
}) {
  const ratio = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div
      className={`progress${state === 'done' ? ' progress--done' : state === 'error' ? ' progress--error' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(ratio * 100)}
    >
      <div className="progress__bar" style={{ transform: `scaleX(${ratio})` }} />
    </div>
  );
}
