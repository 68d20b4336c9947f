import { BulkUpdate } from '../../../src-shared/api/bulk';
import type { Delivery } from '../../../src-shared/api/posts';
import { toFieldIssue } from '../api/errors';
import { EXPORT_ONLY_COLUMNS, actionOf, mediaOf, scheduleOf, targetOf } from '../export/post-records';
import { isTimeZone, listOf, parseScheduledAt, parseTargets } from './fields';
import type { RawRow } from './rows';
import { sendAndCount, type UpdateOptions, type UpdateReport } from './update';
import { MAX_PAGE, type DeliveryIndex } from '../deliveries/delivery-index';
import { IMPORT_COLUMNS, openRow, type RowProblem } from './validate';

/**
 * Re-importing an export: a file with a `post_id` column names posts that exist, so its rows are updates of those
 * posts (`PATCH /api/cli/posts/bulk`), never new posts. Each row is compared with the post as the service last
 * showed it, and only what differs is sent: an unchanged row sends nothing, an edited caption sends the caption
 * alone. That comparison is also what makes a re-import safe to repeat: once applied, the same file finds nothing
 * left to change (and never adds a target twice).
 */

/** A post as the comparison needs it, from its deliveries. */
export interface CurrentPost {
  readonly postId: string;
  readonly caption: string;
  /** `platform:account_id`. */
  readonly targets: readonly string[];
  /** Asset ids. */
  readonly media: readonly string[];
  /** The schedule its deliveries share (UTC ISO), or null. */
  readonly scheduledAt: string | null;
  readonly action: 'draft' | 'schedule' | '';
}

/** The post of this id as last seen, or null when no delivery of it is known. */
export type PostLookup = (postId: string) => CurrentPost | null;

export function currentPostOf(deliveries: readonly Delivery[]): CurrentPost | null {
  const first = deliveries[0];
  if (!first) return null;
  return {
    postId: first.post_id,
    caption: first.caption,
    targets: deliveries.map(targetOf),
    media: mediaOf(first),
    scheduledAt: scheduleOf(deliveries),
    action: actionOf(deliveries),
  };
}

/** The columns a re-import reads: the import's, `post_id`, and what an export adds (ignored). */
export const REIMPORT_COLUMNS: readonly string[] = ['post_id', ...IMPORT_COLUMNS, ...EXPORT_ONLY_COLUMNS];

/** Whether the rows are updates of existing posts: the file has a `post_id` column. */
export const isReimport = (rows: readonly RawRow[]): boolean =>
  rows.some((r) => Object.hasOwn(r.fields, 'post_id'));

export type ChangedField = 'caption' | 'scheduled_at' | 'add_targets';

export interface PlannedUpdate {
  readonly row: number;
  readonly line: number | null;
  readonly update: BulkUpdate;
  readonly changed: readonly ChangedField[];
}

export interface ReimportPlan {
  readonly total: number;
  readonly updates: readonly PlannedUpdate[];
  /** Rows equal to their post: nothing is sent for them. */
  readonly unchanged: readonly { readonly row: number; readonly postId: string }[];
  readonly problems: readonly RowProblem[];
}

export interface ReimportOptions {
  readonly lookup: PostLookup;
  readonly defaultTimezone: string;
  readonly now?: Date | undefined;
}

/** Captions compare as the import reads them: trimmed, with `\n` line breaks. */
const sameText = (a: string, b: string): boolean =>
  a.replace(/\r\n?/g, '\n').trim() === b.replace(/\r\n?/g, '\n').trim();

const filled = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

export function planReimport(rows: readonly RawRow[], o: ReimportOptions): ReimportPlan {
  const now = o.now ?? new Date();
  const problems: RowProblem[] = [];
  const updates: PlannedUpdate[] = [];
  const unchanged: { row: number; postId: string }[] = [];
  const columns = new Set(rows.flatMap((r) => Object.keys(r.fields)));
  for (const c of columns) {
    if (c !== '__invalid' && !REIMPORT_COLUMNS.includes(c)) {
      problems.push({
        row: null,
        line: rows[0]?.line !== null ? 1 : null,
        field: c,
        message: `unknown column "${c}"; an update by post_id reads post_id, caption, targets, scheduled_at and timezone (and ignores the other columns of an export)`,
      });
    }
  }
  if (problems.length) return { total: rows.length, updates, unchanged, problems };

  const seen = new Map<string, number>();
  for (const r of rows) {
    const opened = openRow(r, problems);
    if (!opened) continue;
    const { fields: f, add } = opened;
    const before = problems.length;
    const postId = typeof f.post_id === 'string' ? f.post_id.trim() : '';
    if (!postId) {
      add(
        'post_id',
        'is empty: a file with a post_id column updates the posts it names; add new posts from a file without that column',
      );
      continue;
    }
    const twice = seen.get(postId);
    if (twice !== undefined) {
      add('post_id', `${postId} is also on row ${twice}; a post can be updated by one row only`);
      continue;
    }
    seen.set(postId, r.row);
    const current = o.lookup(postId);
    if (!current) {
      add('post_id', `no post ${postId} is known for this service (it may have been deleted)`);
      continue;
    }

    const update: { post_id: string; caption?: unknown; scheduled_at?: string; add_targets?: unknown } = {
      post_id: postId,
    };
    const changed: ChangedField[] = [];
    if (f.caption !== undefined && !(typeof f.caption === 'string' && sameText(f.caption, current.caption))) {
      update.caption = f.caption;
      changed.push('caption');
    }

    if (filled(f.targets)) {
      const targets = parseTargets(f.targets);
      if (!targets.ok) add('targets', targets.message);
      else {
        const wanted = targets.value.map((t) => `${t.platform}:${t.social_account_id}`);
        const dropped = current.targets.filter((t) => !wanted.includes(t));
        if (dropped.length)
          add(
            'targets',
            `${dropped.join(', ')} cannot be removed by an update; delete that delivery instead`,
          );
        const added = targets.value.filter(
          (t) => !current.targets.includes(`${t.platform}:${t.social_account_id}`),
        );
        if (added.length) {
          update.add_targets = added;
          changed.push('add_targets');
        }
      }
    }

    if (f.media !== undefined) {
      const media = listOf(f.media);
      const same =
        media !== null &&
        media.length === current.media.length &&
        // Asset ids compare in any case; a URL exactly.
        media.every((m) => current.media.includes(m) || current.media.includes(m.toLowerCase()));
      if (!same) add('media', 'the media of a post cannot be changed by an update');
    }
    if (filled(f.title)) add('title', 'a title cannot be changed by an update');

    const action = typeof f.action === 'string' ? f.action.trim().toLowerCase() : '';
    // Only a switch between draft and schedule is refused: a post that has since been published (or failed) is
    // neither, and its row still says what it was when exported.
    if (action && current.action && action !== current.action)
      add(
        'action',
        `the post is ${current.action || 'no longer a draft or scheduled'}; an update cannot make it ${action}`,
      );

    const zoneText = typeof f.timezone === 'string' ? f.timezone.trim() : '';
    if (zoneText && !isTimeZone(zoneText))
      add('timezone', `"${zoneText}" is not an IANA time zone (e.g. Europe/Paris)`);
    const zone = zoneText && isTimeZone(zoneText) ? zoneText : o.defaultTimezone;
    const when = parseScheduledAt(f.scheduled_at, zone);
    if (!when.ok) add('scheduled_at', when.message);
    else if (when.value === undefined) {
      if (f.scheduled_at !== undefined && current.scheduledAt && current.action === 'schedule')
        add(
          'scheduled_at',
          'is empty, but an update cannot cancel a schedule; make the post a draft instead',
        );
    } else if (!current.scheduledAt || Date.parse(current.scheduledAt) !== Date.parse(when.value)) {
      if (new Date(when.value) <= now) add('scheduled_at', `${when.value} is in the past`);
      else {
        update.scheduled_at = when.value;
        changed.push('scheduled_at');
      }
    }

    if (problems.length > before) continue;
    if (changed.length === 0) {
      unchanged.push({ row: r.row, postId });
      continue;
    }
    const parsed = BulkUpdate.safeParse(update);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        add(String(issue.path[0] ?? '') || null, toFieldIssue(issue).message);
      continue;
    }
    updates.push({ row: r.row, line: r.line, update: parsed.data, changed });
  }
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return { total: rows.length, updates, unchanged, problems };
}

/** Posts looked up in the local delivery index (every delivery of the post, in one read). */
export function indexLookup(index: Pick<DeliveryIndex, 'queryDeliveries'>, scope: string): PostLookup {
  return (postId) =>
    currentPostOf(index.queryDeliveries({ scope, postId, limit: MAX_PAGE, order: 'newest' }).items);
}

export interface ReimportReport extends UpdateReport {
  /** Rows equal to their post, for which nothing was sent. */
  readonly unchanged: number;
  /** What each sent row changed. */
  readonly changes: readonly {
    readonly row: number;
    readonly postId: string;
    readonly changed: readonly ChangedField[];
  }[];
}

/** Plans a re-import of `file` (its rows already read), then sends only the changes unless `dryRun`. */
export async function reimportRows(
  file: string,
  rows: readonly RawRow[],
  o: ReimportOptions & Pick<UpdateOptions, 'api' | 'onProgress' | 'signal' | 'dryRun'>,
): Promise<ReimportReport> {
  const plan = planReimport(rows, o);
  const base = {
    file,
    problems: plan.problems,
    total: plan.total,
    updated: 0,
    failed: 0,
    unknown: 0,
    results: [],
    unchanged: plan.unchanged.length,
    changes: plan.updates.map((u) => ({ row: u.row, postId: u.update.post_id, changed: u.changed })),
  };
  if (plan.problems.length) return { ...base, state: 'invalid' };
  if (o.dryRun) return { ...base, state: 'dry-run' };
  return { ...base, ...(await sendAndCount(plan.updates, o)) };
}
