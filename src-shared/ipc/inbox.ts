import { z } from 'zod';
import { Caption, DateTime, Platform } from '../api/common';
import { BridgeError } from './bridge-error';
import { RUN_RECORD_STATES } from './runs';
import { event, invoke } from './define';

/** The most drafts one approve or reject acts on. */
export const INBOX_BATCH_MAX = 500;

/** A media item of a draft; its address stays in main, which serves the preview (`inbox:preview`). */
export const InboxMedia = z.object({
  index: z.number().int().min(0),
  kind: z.enum(['image', 'video', 'other']),
  /** The file's name, for a label (the last part of its address). */
  name: z.string(),
});
export type InboxMedia = z.infer<typeof InboxMedia>;

export const InboxTarget = z.object({
  delivery_id: z.string(),
  platform: Platform,
  social_account_id: z.string(),
});

/** The run that made a draft, as the local executor knows it; `state` null when it ran elsewhere. */
export const InboxRun = z.object({
  /** The service's run id. */
  id: z.string(),
  /** The executor's own id of the run (what the Automations screen's run detail opens), null when unknown. */
  local_id: z.string().nullable(),
  state: z.enum(RUN_RECORD_STATES).nullable(),
  scheduled_for: DateTime.nullable(),
  finished_at: DateTime.nullable(),
});
export type InboxRun = z.infer<typeof InboxRun>;

/** One draft post an automation run made: its deliveries (one per target) are approved or rejected together. */
export const InboxDraft = z.object({
  post_id: z.string(),
  caption: z.string(),
  created_at: DateTime,
  run: InboxRun,
  targets: z.array(InboxTarget),
  media: z.array(InboxMedia),
});
export type InboxDraft = z.infer<typeof InboxDraft>;

export const InboxGroup = z.object({
  /** Null when the run is not one this computer ran (the service names no automation on a post). */
  automation_id: z.string().nullable(),
  automation_name: z.string().nullable(),
  /** Newest first. */
  drafts: z.array(InboxDraft),
});
export type InboxGroup = z.infer<typeof InboxGroup>;

export const InboxList = z.object({
  /** Ordered by each group's newest draft, newest first. */
  groups: z.array(InboxGroup),
  total: z.number().int().min(0),
  /** The service lists at most a page of drafts: more may be waiting behind these. */
  truncated: z.boolean(),
});
export type InboxList = z.infer<typeof InboxList>;

export const InboxListQuery = z.object({ run_id: z.string().min(1).max(200).optional() });

const PostIds = z.array(z.string().min(1).max(200)).min(1).max(INBOX_BATCH_MAX);

export const InboxApprove = z.object({
  post_ids: PostIds,
  /** When to publish; absent: as soon as the service allows (it takes only future times). */
  at: DateTime.optional(),
  /** Into the posting queue instead: each draft at its accounts' next free slot (not with `at`). */
  queue: z.literal(true).optional(),
});
export type InboxApprove = z.input<typeof InboxApprove>;

export const InboxOutcome = z.object({
  post_id: z.string(),
  ok: z.boolean(),
  /** When it will publish (approve). */
  scheduled_at: DateTime.nullable().optional(),
  error: BridgeError.nullable(),
});
export type InboxOutcome = z.infer<typeof InboxOutcome>;
export const InboxOutcomes = z.object({ results: z.array(InboxOutcome) });
export type InboxOutcomes = z.infer<typeof InboxOutcomes>;

export const InboxPreview = z.object({
  /** A `data:` image, or null when there is none to show (a video, another host, too large). */
  data_url: z.string().nullable(),
});

export const inbox = {
  /** The drafts automation runs made, grouped by automation; `run_id` keeps one run's. */
  list: invoke(InboxListQuery, InboxList),
  /** Schedules each draft at `at` (or as soon as possible): it stays on the service, as a scheduled post. */
  approve: invoke(InboxApprove, InboxOutcomes),
  /** Deletes each draft, delivery by delivery. */
  reject: invoke(z.object({ post_ids: PostIds }), InboxOutcomes),
  /** Rewrites a draft's caption (edit, then approve). */
  edit: invoke(z.object({ post_id: z.string().min(1).max(200), caption: Caption }), InboxOutcome),
  /** A small preview of one media item of a listed draft. */
  preview: invoke(
    z.object({ post_id: z.string().min(1).max(200), index: z.number().int().min(0).max(20) }),
    InboxPreview,
  ),
  /** The drafts changed (approved, rejected, or a run made new ones): how many wait now. */
  didChange: event(z.object({ total: z.number().int().min(0) })),
} as const;
