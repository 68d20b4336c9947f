import { useEffect } from 'react';
import { create } from 'zustand';
import type { Delivery } from '../../../../src-shared/api/posts';
import { accountColour } from '../../app/account-colour';
import { formatDateTime } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { PlatformMark } from '../../components/PlatformMark';
import { captionTitle, type EventGroup } from './calendar-events';

/** What the hover preview shows, and where: beside the event's box. */
export interface Preview {
  readonly group: EventGroup;
  readonly start: string;
  readonly box: { top: number; bottom: number; left: number };
}

/** The preview shown, kept apart from the screen's state: hovering re-renders only the preview, never the calendar. */
const usePreview = create<{ readonly preview: Preview | null }>()(() => ({ preview: null }));
export const setPreview = (preview: Preview | null) => usePreview.setState({ preview });

const PREVIEW_WIDTH = 320;
const PREVIEW_ROOM = 220;

/** The hover preview: the whole caption, each account with its colour, and the time in the shown zone. */
export function EventPreview({ names }: { readonly names: ReadonlyMap<string, string> }) {
  const preview = usePreview((s) => s.preview);
  useEffect(() => () => setPreview(null), []);
  if (!preview) return null;
  const { group, start, box } = preview;
  const first = group.deliveries[0] as Delivery;
  // Below the event, or above it near the window's bottom; never past the right edge.
  const below = box.bottom + PREVIEW_ROOM < window.innerHeight;
  const left = Math.max(8, Math.min(box.left, window.innerWidth - PREVIEW_WIDTH - 8));
  const place = below ? { top: box.bottom + 6, left } : { bottom: window.innerHeight - box.top + 6, left };
  return (
    <div className="cal-preview" role="tooltip" style={place}>
      <span className="cal-preview__time">{formatDateTime(start)}</span>
      <p className="cal-preview__caption" dir="auto">
        {captionTitle(first)}
      </p>
      <ul className="cal-preview__accounts">
        {group.deliveries.map((d) => (
          <li key={d.id}>
            <span
              className={`cal-preview__swatch account-colour-${accountColour(d.social_account_id)}`}
              aria-hidden="true"
            />
            <PlatformMark platform={d.platform} decorative />
            {names.get(d.social_account_id) ?? PLATFORM_META[d.platform].label}
          </li>
        ))}
      </ul>
    </div>
  );
}
