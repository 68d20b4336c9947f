import type { DeliveryStatus } from './posts';

/**
 * What a person may do to a delivery in each status: the contract's "States and transitions" table
 * (service-api.md), declared once. The sandbox answers by it, the CLI refuses by it before sending, and the
 * UI offers only what it allows. Every status group ("still scheduled", "deletable", "editable") is derived
 * from it below, never listed again.
 *
 * - `edit`: change the caption or the time (PATCH). The contract updates every still-editable delivery under
 *   the parent together, so an edit applies to the whole post. Its table names `scheduled` as where an edit
 *   starts; a draft is editable too, since the PATCH's `status: scheduled` (how a draft gets a time) is one.
 * - `cancel`: back to draft (PATCH `status: draft`), whole post: "the schedule is cancelled".
 * - `schedule`: give a draft a time (PATCH `status: scheduled` with a future `scheduled_at`), whole post.
 * - `delete`: DELETE by delivery id; one delivery. Any other status answers 409.
 * - `retry`: not a service call of its own. The same post is made again for that one account (a create), and
 *   the failed delivery is then deleted; one delivery.
 * - `publishNow`: re-create without a time (published inline), then delete the original; whole post.
 */
export const DELIVERY_ACTIONS = ['edit', 'cancel', 'schedule', 'delete', 'retry', 'publishNow'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

/** Whether an action applies to the whole post (every delivery under the parent) or to one delivery. */
export const ACTION_SCOPE: Readonly<Record<DeliveryAction, 'post' | 'delivery'>> = {
  edit: 'post',
  cancel: 'post',
  schedule: 'post',
  delete: 'delivery',
  retry: 'delivery',
  publishNow: 'post',
};

type Row = Readonly<Record<DeliveryAction, boolean>>;

export const DELIVERY_TRANSITIONS: Readonly<Record<DeliveryStatus, Row>> = {
  draft: { edit: true, cancel: false, schedule: true, delete: true, retry: false, publishNow: true },
  scheduled: { edit: true, cancel: true, schedule: false, delete: true, retry: false, publishNow: true },
  // The service owns a delivery it is retrying: it can only be removed.
  retry_scheduled: {
    edit: false,
    cancel: false,
    schedule: false,
    delete: true,
    retry: false,
    publishNow: false,
  },
  // Published: it lives on the platform now; nothing here can change or remove it.
  posted: { edit: false, cancel: false, schedule: false, delete: false, retry: false, publishNow: false },
  failed: { edit: false, cancel: false, schedule: false, delete: true, retry: true, publishNow: false },
};

/** Whether `action` is allowed on a delivery in `status`. */
export function canDo(status: DeliveryStatus, action: DeliveryAction): boolean {
  return DELIVERY_TRANSITIONS[status][action];
}

/** The statuses in which `action` is allowed, in the contract's order. */
export function statusesAllowing(action: DeliveryAction): readonly DeliveryStatus[] {
  return (Object.keys(DELIVERY_TRANSITIONS) as DeliveryStatus[]).filter(
    (s) => DELIVERY_TRANSITIONS[s][action],
  );
}

/**
 * Which action a `PATCH /api/cli/posts` is, by its `status`: `draft` cancels the schedule, `scheduled` schedules
 * the drafts, anything else (caption, a new time, added targets) edits. The sandbox answers by it and the CLI
 * refuses by it, so both read one update alike.
 */
export function updateAction(update: {
  readonly status?: 'draft' | 'scheduled' | undefined;
}): DeliveryAction {
  return update.status === 'draft' ? 'cancel' : update.status === 'scheduled' ? 'schedule' : 'edit';
}

/** Statuses in which `DELETE /api/cli/posts` removes a delivery; any other answers 409. */
export const DELETABLE_STATUSES = statusesAllowing('delete');

/** Statuses a PATCH changes: "every still-scheduled delivery under the parent is updated together". */
export const EDITABLE_STATUSES = statusesAllowing('edit');

/**
 * Statuses the service will still try to send: a time is set and nothing has come of it yet. Not a column of
 * the table, but the contract's own words ("delivery still scheduled"); the retrying status belongs here too.
 */
export const STILL_SCHEDULED_STATUSES: readonly DeliveryStatus[] = ['scheduled', 'retry_scheduled'];

/** What a calendar shows by default: what is going out and what went out. */
export const CALENDAR_STATUSES: readonly DeliveryStatus[] = [...STILL_SCHEDULED_STATUSES, 'posted'];

/**
 * Why an action is missing, in a person's words, for the places a person would look for it. `platform` is the
 * platform's display name ("X", "LinkedIn").
 */
export function whyNot(status: DeliveryStatus, action: DeliveryAction, platform: string): string | null {
  if (canDo(status, action)) return null;
  switch (status) {
    case 'posted':
      return action === 'delete'
        ? `Published posts stay on ${platform}; remove them there.`
        : `This post is already published on ${platform}; make a new post instead.`;
    case 'retry_scheduled':
      return `${platform} refused this post and it is being tried again; delete it to stop, or wait for the result.`;
    case 'failed':
      return `This post failed on ${platform}; retry it, or delete it.`;
    case 'draft':
      return action === 'cancel'
        ? 'This post is a draft already.'
        : 'Drafts can be edited, scheduled or deleted.';
    case 'scheduled':
      return action === 'schedule'
        ? 'This post is scheduled already; change its time instead.'
        : 'Only a failed post can be retried.';
  }
}
