import type { Platform } from '../../../../src-shared/api/common';
import { LIMITS } from '../../../../src-shared/api/limits';
import { PLATFORM_META } from '../../app/platforms';
import { LabeledField } from '../../components/Field';
import { platformWarnings } from './caption-counts';

export function CaptionEditor({
  value,
  onChange,
  platforms,
}: {
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly platforms: readonly Platform[];
}) {
  // The service counts UTF-16 code units (a JS string length), so the counter does too.
  const length = value.length;
  const max = LIMITS.captionLength;
  const over = length - max;
  const near = !(over > 0) && length > max * 0.9;
  // The service's limit is the rule; each platform's own is a warning that names it.
  const softWarnings = platformWarnings(value, platforms);

  return (
    <LabeledField id="compose-caption" label="Caption" className="caption">
      <textarea
        id="compose-caption"
        className="textarea caption__input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="What do you want to share?"
        aria-describedby="compose-caption-count compose-caption-hints"
        aria-invalid={over > 0}
        rows={7}
      />
      <div className="caption__footer">
        <div id="compose-caption-hints" className="caption__hints">
          {platforms.length === 0 ? (
            <span className="field__hint">Pick accounts to see each platform's caption hints.</span>
          ) : (
            platforms.map((p) => (
              <span key={p} className="field__hint">
                <strong>{PLATFORM_META[p].label}:</strong> {PLATFORM_META[p].hint}
              </span>
            ))
          )}
          {softWarnings.map((w) => (
            <span key={w} className="field__hint caption__warn">
              {w}
            </span>
          ))}
        </div>
        <span
          id="compose-caption-count"
          className={`badge badge--plain caption__count tabular${over > 0 ? ' badge--danger' : near ? ' badge--warning' : ''}`}
          aria-label={
            over > 0 ? `${over} characters over the ${max} limit` : `${length} of ${max} characters`
          }
        >
          {over > 0 ? `−${over}` : `${length.toLocaleString()} / ${max.toLocaleString()}`}
        </span>
      </div>
    </LabeledField>
  );
}
