import type { DeliveryIndex } from '../deliveries/delivery-index';
import type { DeliveryPages } from './post-records';

/** Which deliveries a posts export covers: the list's filters, and for the calendar its range. */
export interface PostsExportFilter {
  /** Which service (the index's scope). */
  readonly scope: string;
  readonly status?: string | readonly string[] | undefined;
  readonly platform?: string | undefined;
  /** Only deliveries whose `scheduled_at` (else `published_at`) is in [from, to): the calendar's range. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** The local delivery index, page by page, kept together by post. */
export function indexPages(index: Pick<DeliveryIndex, 'queryByPost'>, f: PostsExportFilter): DeliveryPages {
  return (offset, limit) =>
    index.queryByPost({
      scope: f.scope,
      status: f.status,
      platform: f.platform,
      from: f.from,
      to: f.to,
      offset,
      limit,
    });
}

/** The machine's zone: local times in an export are written in it unless one is asked for. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
