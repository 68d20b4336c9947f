import {
  ACTION_SCOPE,
  DELIVERY_TRANSITIONS,
  canDo,
  whyNot,
  type DeliveryAction,
} from '../../src-shared/api/delivery-transitions';
import { DELIVERY_STATUSES, type Delivery, type DeliveryStatus } from '../../src-shared/api/posts';
import { LIMITS } from '../../src-shared/api/limits';
import { PLATFORM_RULES } from '../../src-shared/platform-rules';
import { NetworkError, ValidationError } from '../core/api/errors';
import type { Core } from '../core/services';

type Known = Pick<Delivery, 'id' | 'post_id' | 'status' | 'platform'>;

/**
 * What the transition table says about `action` on what `id` names (a delivery, or every delivery of a parent
 * post), in the words the app shows; null when it allows it or nothing is known. A one-delivery action (delete)
 * is refused when any delivery it reaches refuses it, as the service answers 409; a whole-post action (edit,
 * cancel, schedule) when none of the post's deliveries allows it, as the service then has nothing to change.
 */
export function refusal(known: readonly Known[], id: string, action: DeliveryAction): string | null {
  const own = known.find((d) => d.id === id);
  const reached =
    ACTION_SCOPE[action] === 'delivery' && own
      ? [own]
      : known.filter((d) => d.post_id === (own?.post_id ?? id));
  if (reached.length === 0) return null;
  const say = (d: Known) => whyNot(d.status, action, PLATFORM_RULES[d.platform].name);
  if (ACTION_SCOPE[action] === 'delivery') {
    const blocked = reached.find((d) => !canDo(d.status, action));
    return blocked ? say(blocked) : null;
  }
  return reached.some((d) => canDo(d.status, action)) ? null : say(reached[0] as Known);
}

/** The statuses whose lists must be read to judge `action`: all of a post's for a whole-post one. */
function statusesToRead(action: DeliveryAction): readonly DeliveryStatus[] {
  if (ACTION_SCOPE[action] === 'post') return DELIVERY_STATUSES;
  // One delivery: only a status that refuses can stop it, so only those are read (one request for delete).
  return DELIVERY_STATUSES.filter((s) => !DELIVERY_TRANSITIONS[s][action]);
}

/**
 * Refuses before sending (exit 2) what the table refuses, after reading the deliveries `id` names from the
 * service's lists (the newest 100 of each status). Not found there, or the service out of reach: sent as it is,
 * and the service has the last word. Any other answer to the lists (a bad key) is the command's error. Returns the
 * deliveries of the post `id` names as read (none when unknown), for the checks an edit needs beyond the table.
 */
export async function refuseLocally(
  core: Core,
  id: string,
  action: DeliveryAction,
): Promise<readonly Delivery[]> {
  let known: Delivery[];
  try {
    const pages = await Promise.all(
      statusesToRead(action).map((status) => core.client.listPosts({ status, limit: LIMITS.pageSizeMax })),
    );
    known = pages.flatMap((p) => p.posts);
  } catch (err) {
    // Out of reach: the request is sent as it is (or queued by the caller's retry), and the service decides.
    if (err instanceof NetworkError) return [];
    throw err;
  }
  const why = refusal(known, id, action);
  if (why) throw new ValidationError([{ path: 'id', message: why }], null, 'request');
  return reachedBy(known, id);
}

/** The deliveries `id` names: that delivery's post's, or the parent post's, as they were read. */
function reachedBy(known: readonly Delivery[], id: string): readonly Delivery[] {
  const postId = known.find((d) => d.id === id)?.post_id ?? id;
  return known.filter((d) => d.post_id === postId);
}
