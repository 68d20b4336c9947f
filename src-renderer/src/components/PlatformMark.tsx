import type { Platform } from '../../../src-shared/api/common';
import { PLATFORM_META } from '../app/platforms';

/** A platform's coloured mark; labelled for assistive tech unless a visible label sits beside it. */
export function PlatformMark({
  platform,
  size = 'md',
  decorative = false,
}: {
  readonly platform: Platform;
  readonly size?: 'md' | 'lg';
  readonly decorative?: boolean;
}) {
  const meta = PLATFORM_META[platform];
  return (
    <span
      className={`mark-box platform-mark platform-mark--${platform}${size === 'lg' ? ' platform-mark--lg' : ''}`}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : meta.label}
      aria-hidden={decorative ? true : undefined}
      title={meta.label}
    >
      {meta.mark}
    </span>
  );
}

export function PlatformLabel({ platform }: { readonly platform: Platform }) {
  return (
    <span className="platform-label">
      <PlatformMark platform={platform} decorative />
      {PLATFORM_META[platform].label}
    </span>
  );
}
