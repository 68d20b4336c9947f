import type { Delivery } from '../../../../src-shared/api/posts';
import { PLATFORM_META } from '../../app/platforms';
import { PlatformMark } from '../../components/PlatformMark';
import { PostThumb } from '../posts/PostGroupParts';
import type { EventGroup } from './calendar-events';

interface EventCardProps {
  readonly group: EventGroup;
  readonly timeText: string;
  readonly title: string;
  readonly names: ReadonlyMap<string, string>;
  readonly selected: boolean;
}

/** One event in the grid: thumbnail, time, a mark per platform and the caption; named with every account. */
export function EventCard({ group, timeText, title, names, selected }: EventCardProps) {
  const first = group.deliveries[0] as Delivery;
  const media = first.media?.length ?? 0;
  const who = group.deliveries
    .map((d) => `${PLATFORM_META[d.platform].label} ${names.get(d.social_account_id) ?? ''} (${d.status})`)
    .join(', ');
  return (
    <div
      className="cal-event__inner"
      aria-label={`${timeText}: ${title}; ${who}${selected ? '; selected' : ''}`}
    >
      <span className="cal-event__line">
        <PostThumb postId={group.post_id} count={media} size="small" />
        <span className="cal-event__time">{timeText}</span>
        {group.deliveries.map((d) => (
          <PlatformMark key={d.id} platform={d.platform} decorative />
        ))}
      </span>
      <span className="cal-event__title">{title}</span>
    </div>
  );
}
