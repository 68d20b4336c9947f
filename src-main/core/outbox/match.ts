import type { CreatePostRequest, Delivery } from '../../../src-shared/api/posts';

/**
 * Telling a publish-now that lost its answer apart in the posts list. Pure: the listings come in, a verdict comes out.
 *
 * The list is at most 100 deliveries, newest first, with no offset. A post missing from a window that is full may
 * simply be older than the window; so "not found" proves "never created" only in a window that is not full, or one
 * that reaches back before the send. When nothing proves either, the verdict is `unknown`, never `absent`.
 */

/** Text as a service may store it: lone surrogates become U+FFFD (SQLite's UTF-8 does that), canonical
 *  composition, line breaks as `\n`, no edge whitespace. */
export function normalText(s: string): string {
  return s
    .replace(/\p{Surrogate}/gu, '\uFFFD')
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .trim();
}

const targetKey = (platform: string, accountId: string): string => `${platform}:${accountId}`;

/** Could this delivery belong to a post made from `req`? Fields the listing does not carry are not held against it. */
export function deliveryFits(d: Readonly<Delivery>, req: Readonly<CreatePostRequest>): boolean {
  if (
    !req.targets.some(
      (t) => targetKey(t.platform, t.social_account_id) === targetKey(d.platform, d.social_account_id),
    )
  )
    return false;
  if (normalText(d.caption) !== normalText(req.caption)) return false;
  const title = (d as { title?: unknown }).title;
  if (
    (typeof title === 'string' || title === null) &&
    normalText(title ?? '') !== normalText(req.title ?? '')
  )
    return false;
  if (d.media !== undefined) {
    const wanted = req.media ?? [];
    if (d.media.length !== wanted.length) return false;
    // Managed uploads keep their asset id; a URL may be re-hosted by the service, so only its place counts.
    const sameAssets = wanted.every((m, i) => !('asset_id' in m) || d.media?.[i]?.asset_id === m.asset_id);
    if (!sameAssets) return false;
  }
  return true;
}

/** One listing of `GET /api/cli/posts`, narrowed by platform and status. */
export interface Window {
  readonly platform: string;
  readonly status: string;
  readonly deliveries: readonly Delivery[];
  /** It answered as many as it was asked for: older deliveries may be left out. */
  readonly full: boolean;
}

export interface MatchContext {
  /** Posts that fitted the request before it was sent: identical, but not ours. */
  readonly known: ReadonlySet<string>;
  /** Posts other outbox entries already own. */
  readonly taken: ReadonlySet<string>;
  /** The newest `created_at` the service showed before the send (its clock, not ours), or null if it showed none. */
  readonly fenceAt: number | null;
  /** How far the service's clocks may disagree with each other. */
  readonly slackMs: number;
}

export type Verdict =
  | { readonly kind: 'found'; readonly postId: string; readonly socialPostIds: readonly string[] }
  /** Proven never created: every delivery it would have had on some platform is in windows that hold all of them. */
  | { readonly kind: 'absent' }
  | { readonly kind: 'unknown'; readonly reason: 'full-window' | 'partial-match' };

const createdAt = (d: Readonly<Delivery>): number => Date.parse(d.created_at);

/** The verdict on `req` from the windows of every platform it targets. */
export function judge(
  windows: readonly Window[],
  req: Readonly<CreatePostRequest>,
  ctx: Readonly<MatchContext>,
): Verdict {
  const before = ctx.fenceAt === null ? null : ctx.fenceAt - ctx.slackMs;
  const groups = new Map<string, Map<string, Delivery>>();
  for (const w of windows) {
    for (const d of w.deliveries) {
      const g = groups.get(d.post_id) ?? new Map<string, Delivery>();
      g.set(d.id, d);
      groups.set(d.post_id, g);
    }
  }
  const wanted = new Set(req.targets.map((t) => targetKey(t.platform, t.social_account_id)));
  const whole: Delivery[][] = [];
  const partial: Delivery[][] = [];
  for (const [postId, g] of groups) {
    if (ctx.known.has(postId) || ctx.taken.has(postId)) continue;
    const ds = [...g.values()];
    // Made before the send: somebody else's identical post.
    if (before !== null && ds.some((d) => createdAt(d) < before)) continue;
    if (!ds.every((d) => deliveryFits(d, req))) continue;
    const keys = new Set(ds.map((d) => targetKey(d.platform, d.social_account_id)));
    if (keys.size === wanted.size && ds.length === wanted.size) whole.push(ds);
    else partial.push(ds);
  }
  if (whole.length > 0) {
    // The oldest after the send is ours: a later identical post would be another entry's.
    whole.sort((a, b) => Math.min(...a.map(createdAt)) - Math.min(...b.map(createdAt)));
    const ours = whole[0] as Delivery[];
    return { kind: 'found', postId: ours[0]?.post_id as string, socialPostIds: ours.map((d) => d.id) };
  }

  const complete = (w: Window): boolean =>
    !w.full || (before !== null && w.deliveries.some((d) => createdAt(d) < before));
  const platforms = [...new Set(req.targets.map((t) => t.platform))];
  const provenAbsentOn = (p: string): boolean => {
    const ws = windows.filter((w) => w.platform === p);
    return ws.length > 0 && ws.every(complete) && !partial.some((ds) => ds.some((d) => d.platform === p));
  };
  if (platforms.some(provenAbsentOn)) return { kind: 'absent' };
  return { kind: 'unknown', reason: partial.length > 0 ? 'partial-match' : 'full-window' };
}

/** Posts in a listing all of whose deliveries fit the request: taken before the send, they are not ours. */
export function fittingPostIds(deliveries: readonly Delivery[], req: Readonly<CreatePostRequest>): string[] {
  const fits = new Map<string, boolean>();
  for (const d of deliveries) fits.set(d.post_id, (fits.get(d.post_id) ?? true) && deliveryFits(d, req));
  return [...fits].filter(([, ok]) => ok).map(([id]) => id);
}
