import { EDITABLE_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { LIMITS } from '../../../src-shared/api/limits';
import type { Delivery, UpdatePostResponse } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { ApiError, isRefusal } from '../api/errors';
import { errorText } from '../common/error-text';
import { intentOf, type ChangeItem, type ChangePlans, type SingleChange } from '../outbox/change-plans';

type Client = Pick<ApiClient, 'updatePost' | 'deletePost' | 'listPosts'>;

/** How one change of one post ended: applied, refused, or never answered (it may have been applied). */
export interface SingleOutcome {
  readonly state: 'done' | 'failed' | 'unknown';
  /** Why it was refused, or why no answer came. */
  readonly error: string | null;
  readonly code: string | null;
  /** The post after the update: the service's answer, or what its lists showed (none for a delete). */
  readonly answer: UpdatePostResponse | null;
  /** An earlier run left this same change unfinished, and this one finished it. */
  readonly resumed: boolean;
  readonly requests: number;
  /** The refusal itself, when this run heard it (to be reported as any refusal is). */
  readonly cause?: unknown;
}

export interface SingleOptions {
  /** How many sends (or reads back) before a change whose answer was lost is left `unknown` (default 4). */
  readonly attempts?: number;
  readonly delayMs?: number;
}

const codeOf = (err: unknown) => (err instanceof ApiError ? (err.wireCode ?? String(err.status)) : null);

/**
 * Whether the service's lists show the update's result on the post (`applied`), show the post without it
 * (`not_applied`), or do not show the post at all (`not_seen`: it is not among the newest the lists give).
 */
export async function readBack(
  client: Pick<ApiClient, 'listPosts'>,
  body: Extract<SingleChange, { op: 'update' }>['body'],
): Promise<{ shown: 'applied' | 'not_applied' | 'not_seen'; post: UpdatePostResponse | null }> {
  const seen: Delivery[] = [];
  // The editable statuses: where an update leaves a post. One after another, newest first each.
  for (const status of EDITABLE_STATUSES) {
    const { posts } = await client.listPosts({ status, limit: LIMITS.pageSizeMax });
    seen.push(...posts);
  }
  const parent = seen.find((d) => d.id === body.id || d.post_id === body.id)?.post_id;
  if (!parent) return { shown: 'not_seen', post: null };
  const mine = seen.filter((d) => d.post_id === parent);
  const at = body.scheduled_at ?? body.scheduled_time;
  const ok =
    (body.caption === undefined || mine.every((d) => d.caption === body.caption)) &&
    (body.status === undefined || mine.every((d) => d.status === body.status)) &&
    (at === undefined ||
      mine.some((d) => d.status === 'scheduled' && Date.parse(d.scheduled_at ?? '') === Date.parse(at))) &&
    (body.add_targets ?? []).every((t) => mine.some((d) => d.social_account_id === t.social_account_id));
  return { shown: ok ? 'applied' : 'not_applied', post: { post_id: parent, social_posts: mine } };
}

/** The record's intent for one post's change: the same change asked again while unfinished is finished, not redone. */
export function singleIntent(change: SingleChange): string {
  return intentOf({ command: `posts ${change.op}`, change });
}

/**
 * One post's update or delete through the outbox's change record: recorded before it is sent, then settled. A lost
 * answer (or a run killed before it heard) is settled by reading the service back before anything is sent again:
 * an update the lists show applied is done; a delete is sent again, and the service's 404 then says it is gone. A
 * refusal after a lost answer is never reported as failed unless the lists show the change was not applied.
 */
export async function changeOne(
  client: Client,
  plans: ChangePlans,
  change: SingleChange,
  opts: SingleOptions = {},
): Promise<SingleOutcome> {
  const intent = singleIntent(change);
  const earlier = plans.unfinished(intent);
  const postId = change.op === 'update' ? change.body.id : change.id;
  const plan = earlier ?? plans.record(intent, [{ postId, update: change, before: null }]);
  const resumed = earlier !== null;
  const attempts = opts.attempts ?? 4;
  const delayMs = opts.delayMs ?? 250;
  let requests = 0;
  let answer: UpdatePostResponse | null = null;
  let cause: unknown;
  const item = (): ChangeItem => plans.get(plan.id)!.items[0]!;
  const settle = (state: SingleOutcome['state'], error: string | null = null, code: string | null = null) =>
    plans.settle(plan.id, 0, { state, error, code });

  for (let round = 0; round < attempts; round++) {
    const it = item();
    if (it.state === 'done' || it.state === 'failed') break;
    if (round > 0) await new Promise((r) => setTimeout(r, delayMs * 2 ** (round - 1)));
    // Sent before and no answer kept: the service may have applied it.
    const lost = it.state === 'unknown' || it.attempts > 0;
    let shown: Awaited<ReturnType<typeof readBack>>['shown'] | null = null;
    if (lost && change.op === 'update') {
      try {
        const read = await readBack(client, change.body);
        shown = read.shown;
        if (shown === 'applied') answer = read.post;
      } catch (err) {
        settle('unknown', errorText(err), codeOf(err));
        continue;
      }
      if (shown === 'applied') {
        settle('done');
        break;
      }
    }
    plans.sending(plan.id, [0]);
    requests += 1;
    try {
      if (change.op === 'update') answer = await client.updatePost(change.body);
      else await client.deletePost({ id: change.id });
      settle('done');
    } catch (err) {
      if (!isRefusal(err)) settle('unknown', errorText(err), codeOf(err));
      else if (lost && change.op === 'delete' && err instanceof ApiError && err.status === 404)
        settle('done'); // the lost send deleted it
      else if (lost && shown !== 'not_applied')
        settle('unknown', errorText(err), codeOf(err)); // refused now, perhaps because it was applied then
      else {
        cause = err;
        settle('failed', errorText(err), codeOf(err));
      }
    }
  }
  const last = item();
  const state = last.state === 'pending' ? 'unknown' : last.state;
  if (state !== 'unknown') plans.reported(plan.id);
  return {
    state,
    error: last.error,
    code: last.code,
    answer,
    resumed,
    requests,
    ...(cause !== undefined ? { cause } : {}),
  };
}
