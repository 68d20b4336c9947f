import { z } from 'zod';
import { LIMITS } from './limits';
import { Caption, DateTime, Target, Uuid, pageLimit } from './common';
import { Delivery } from './posts';

/**
 * One bulk item. Bulk cannot publish now: an item is a draft (`action: "draft"`) or a schedule
 * (`scheduled_at`). Media only by `asset_id`. Field names are the sandbox's (docs/sandbox.md).
 */
export const BulkItem = z
  .object({
    item_key: z.string().min(1).max(200),
    caption: Caption,
    title: z.string().max(LIMITS.postTitle).optional(),
    media: z
      .array(z.object({ asset_id: Uuid }))
      .max(LIMITS.mediaPerPost)
      .optional(),
    targets: z.array(Target).min(1).max(LIMITS.addTargetsPerUpdate),
    action: z.literal('draft').optional(),
    scheduled_at: DateTime.optional(),
  })
  .refine((i) => i.action === 'draft' || i.scheduled_at !== undefined, {
    message: 'a bulk item is a draft (action "draft") or a schedule (scheduled_at); bulk cannot publish now',
    path: ['scheduled_at'],
  });
export type BulkItem = z.infer<typeof BulkItem>;

export const BulkCreateRequest = z.object({
  batch_id: Uuid,
  items: z.array(BulkItem).min(1).max(LIMITS.bulkBatchSize),
});
export type BulkCreateRequest = z.infer<typeof BulkCreateRequest>;

export const BulkItemResult = z.looseObject({
  item_key: z.string(),
  index: z.number().int(),
  status: z.enum(['created', 'failed']),
  post_id: z.string().nullable(),
  social_post_ids: z.array(z.string()),
  error: z.string().nullable(),
});
export type BulkItemResult = z.infer<typeof BulkItemResult>;

export const BulkResult = z.looseObject({
  batch_id: z.string(),
  total: z.number().int(),
  created_count: z.number().int(),
  failed_count: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  items: z.array(BulkItemResult),
  next: z.string().nullable(),
});
export type BulkResult = z.infer<typeof BulkResult>;

export const BulkInspectQuery = z.object({
  batch_id: Uuid,
  offset: z.coerce.number().int().min(0).default(0).optional(),
  limit: pageLimit(LIMITS.pageSizeDefault.bulkInspect).optional(),
});
export type BulkInspectQuery = z.input<typeof BulkInspectQuery>;

/** One entry of a bulk update; the service judges each entry on its own (service-api.md: "applied independently"). */
export const BulkUpdate = z.object({
  post_id: z.string().min(1),
  caption: Caption.optional(),
  scheduled_at: DateTime.optional(),
  add_targets: z.array(Target).max(LIMITS.addTargetsPerUpdate).optional(),
});
export type BulkUpdate = z.infer<typeof BulkUpdate>;
/** What a client sends: every entry already valid on its own. */
export const BulkUpdateRequest = z.object({ updates: z.array(BulkUpdate).min(1).max(LIMITS.bulkUpdateSize) });
export type BulkUpdateRequest = z.infer<typeof BulkUpdateRequest>;
/**
 * What the service refuses whole: a body that is not an update list, or one with 0 or more than 100 entries.
 * Anything else is answered entry by entry, an invalid entry failing alone with its reason.
 */
export const BulkUpdateList = z.object({
  updates: z.array(z.unknown()).min(1).max(LIMITS.bulkUpdateSize),
});

/**
 * One entry's result, in request order. `index` is the entry's position in `updates`; `post_id` is null when the
 * entry named none. A failure carries the HTTP `status` and `code` that entry alone would have answered with.
 */
export const BulkUpdateResult = z.looseObject({
  index: z.number().int().optional(),
  post_id: z.string().nullable(),
  ok: z.boolean(),
  social_posts: z.array(Delivery).optional(),
  status: z.number().int().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});
export type BulkUpdateResult = z.infer<typeof BulkUpdateResult>;
export const BulkUpdateResponse = z.looseObject({
  total: z.number().int(),
  updated_count: z.number().int(),
  failed_count: z.number().int(),
  results: z.array(BulkUpdateResult),
  next: z.string().nullable(),
});
export type BulkUpdateResponse = z.infer<typeof BulkUpdateResponse>;
