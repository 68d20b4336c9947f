import type { Controlled } from '../../components/Field';
import { Segmented } from '../../components/Segmented';

export type Mode = 'draft' | 'auto';

const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'draft', label: 'Drafts' },
  { value: 'auto', label: 'Auto publish' },
];

/** Drafts to review, or publishing on each run. */
export function ModeField({ value, onChange }: Controlled<Mode>) {
  return (
    <div className="field">
      <span className="field__label">Mode</span>
      <Segmented label="Mode" value={value} options={MODES} onChange={onChange} />
      <span className="field__hint">
        {value === 'draft'
          ? 'Each run leaves drafts for you to review.'
          : 'Each run publishes: TikTok and YouTube by direct upload, the others through the service.'}
      </span>
    </div>
  );
}
