import { STILL_SCHEDULED_STATUSES } from '../../../src-shared/api/delivery-transitions';
import type { Delivery } from '../../../src-shared/api/posts';
import type { ExportFormat, ExportRecord } from './write-export';
import { bothTimes, localTime, utcTime } from './local-time';

/**
 * The columns of a posts export. The first seven are bulk import's own (docs/bulk.md), with `post_id` first: an
 * edited export re-imports as an update of these posts. The rest describe each post's deliveries and are read
 * back by nothing: a list per post in the order of `targets` (`statuses`, `delivery_ids`…), times in UTC and in
 * the export's zone.
 */
export const POST_EXPORT_COLUMNS = [
  'post_id',
  'caption',
  'targets',
  'media',
  'scheduled_at',
  'timezone',
  'action',
  'scheduled_at_local',
  'statuses',
  'delivery_ids',
  'published_at',
  'published_at_local',
  'external_urls',
  'last_errors',
  'created_at',
  'created_at_local',
] as const;

/** What an export writes that bulk import does not read: ignored there, whatever it holds. */
export const EXPORT_ONLY_COLUMNS: readonly string[] = [
  ...POST_EXPORT_COLUMNS.slice(POST_EXPORT_COLUMNS.indexOf('scheduled_at_local')),
  // The JSON export's list of deliveries, which holds the same facts per delivery.
  'deliveries',
];

const STILL_SCHEDULED = new Set<string>(STILL_SCHEDULED_STATUSES);

/** The schedule a post's deliveries share: that of one still scheduled, else of any that had one. */
export function scheduleOf(deliveries: readonly Delivery[]): string | null {
  const d =
    deliveries.find((x) => STILL_SCHEDULED.has(x.status) && x.scheduled_at) ??
    deliveries.find((x) => x.status === 'draft' && x.scheduled_at) ??
    deliveries.find((x) => x.scheduled_at);
  return d?.scheduled_at ?? null;
}

/** `draft` while every delivery is a draft, `schedule` while one is scheduled, empty once none is either. */
export function actionOf(deliveries: readonly Delivery[]): 'draft' | 'schedule' | '' {
  if (deliveries.some((d) => STILL_SCHEDULED.has(d.status))) return 'schedule';
  if (deliveries.length > 0 && deliveries.every((d) => d.status === 'draft')) return 'draft';
  return '';
}

export const targetOf = (d: Delivery): string => `${d.platform}:${d.social_account_id}`;

/**
 * The post's media: a managed upload by its asset id (what bulk import's `media` column takes), a medium given by
 * URL by that URL, so an export keeps every medium (a re-import compares them; it cannot change media).
 */
export function mediaOf(d: Delivery | undefined): string[] {
  return (d?.media ?? []).flatMap((m) => (m.asset_id ? [m.asset_id] : m.url ? [m.url] : []));
}

/** One post from its deliveries (all of one `post_id`, in the index's order). */
export function postRecord(
  deliveries: readonly Delivery[],
  zone: string,
  format: ExportFormat,
): ExportRecord {
  const first = deliveries[0] as Delivery;
  const scheduled = scheduleOf(deliveries);
  const created = deliveries.reduce(
    (min, d) => (Date.parse(d.created_at) < Date.parse(min) ? d.created_at : min),
    first.created_at,
  );
  const common = {
    post_id: first.post_id,
    caption: first.caption,
    scheduled_at: utcTime(scheduled),
    timezone: zone,
    action: actionOf(deliveries),
    scheduled_at_local: localTime(scheduled, zone),
    created_at: utcTime(created),
    created_at_local: localTime(created, zone),
  };
  if (format === 'json') {
    return {
      ...common,
      targets: deliveries.map(targetOf),
      media: mediaOf(first),
      deliveries: deliveries.map((d) => ({
        id: d.id,
        platform: d.platform,
        social_account_id: d.social_account_id,
        status: d.status,
        ...bothTimes('scheduled_at', d.scheduled_at, zone),
        ...bothTimes('published_at', d.published_at, zone),
        external_url: d.external_url ?? null,
        last_error: d.last_error ?? null,
      })),
    };
  }
  const list = (f: (d: Delivery) => string) => deliveries.map(f).join(';');
  return {
    ...common,
    targets: list(targetOf),
    media: mediaOf(first).join(';'),
    statuses: list((d) => d.status),
    delivery_ids: list((d) => d.id),
    published_at: list((d) => utcTime(d.published_at)),
    published_at_local: list((d) => localTime(d.published_at, zone)),
    external_urls: list((d) => d.external_url ?? ''),
    last_errors: deliveries
      .filter((d) => d.last_error)
      .map((d) => `${d.platform}: ${d.last_error ?? ''}`)
      .join(' | '),
  };
}

/** Where a posts export reads: each post's deliveries, one post at a time (`indexPosts`). */
export type PostSource = () => AsyncIterable<readonly Delivery[]>;

/** One record per post, made as the source yields it. */
export async function* postRecords(
  source: PostSource,
  o: { readonly zone: string; readonly format: ExportFormat },
): AsyncGenerator<ExportRecord> {
  for await (const deliveries of source()) {
    if (deliveries.length > 0) yield postRecord(deliveries, o.zone, o.format);
  }
}
