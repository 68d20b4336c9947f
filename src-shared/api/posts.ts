import { z } from 'zod';
import { LIMITS } from './limits';
import { Caption, DateTime, Platform, Target, Uuid, pageLimit } from './common';

export const DELIVERY_STATUSES = ['draft', 'scheduled', 'retry_scheduled', 'posted', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** A media reference on a post: a managed upload by `asset_id`, or (single creates only) a public `url`. */
export const MediaRef = z.union([z.object({ asset_id: Uuid }), z.object({ url: z.url() })]);
export type MediaRef = z.infer<typeof MediaRef>;

/**
 * The create-post request. The contract names `action`, `scheduled_at` and a target list; the rest
 * (`caption`, `media`, `targets`, `title`) is the sandbox's documented choice (docs/sandbox.md).
 */
export const CreatePostRequest = z.object({
  caption: Caption,
  title: z.string().max(LIMITS.postTitle).optional(),
  media: z.array(MediaRef).max(LIMITS.mediaPerPost).default([]).optional(),
  targets: z.array(Target).min(1).max(LIMITS.addTargetsPerUpdate),
  action: z.literal('draft').optional(),
  scheduled_at: DateTime.optional(),
});
export type CreatePostRequest = z.infer<typeof CreatePostRequest>;

export const Delivery = z.looseObject({
  id: z.string(),
  post_id: z.string(),
  status: DeliveryStatus,
  platform: Platform,
  social_account_id: z.string(),
  caption: z.string(),
  media: z.array(z.looseObject({ asset_id: z.string().optional(), url: z.string() })).optional(),
  scheduled_at: DateTime.nullable(),
  published_at: DateTime.nullable().optional(),
  attempts: z.number().int().optional(),
  last_error: z.string().nullable().optional(),
  external_url: z.string().nullable().optional(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Delivery = z.infer<typeof Delivery>;

export const ParentPost = z.looseObject({
  id: z.string(),
  caption: z.string(),
  created_at: DateTime,
});
export type ParentPost = z.infer<typeof ParentPost>;

export const CreatePostResponse = z.looseObject({ post: ParentPost, social_posts: z.array(Delivery) });
export type CreatePostResponse = z.infer<typeof CreatePostResponse>;

export const ListPostsQuery = z.object({
  status: z.string().optional(),
  platform: Platform.optional(),
  limit: pageLimit(LIMITS.pageSizeDefault.posts).optional(),
});
export type ListPostsQuery = z.input<typeof ListPostsQuery>;
export const ListPostsResponse = z.looseObject({ posts: z.array(Delivery) });
export type ListPostsResponse = z.infer<typeof ListPostsResponse>;

export const UpdatePostRequest = z
  .object({
    id: z.string().min(1),
    status: z.enum(['draft', 'scheduled']).optional(),
    caption: Caption.optional(),
    scheduled_at: DateTime.optional(),
    scheduled_time: DateTime.optional(),
    add_targets: z.array(Target).max(LIMITS.addTargetsPerUpdate).optional(),
  })
  .refine(
    (u) =>
      u.status !== undefined ||
      u.caption !== undefined ||
      u.scheduled_at !== undefined ||
      u.scheduled_time !== undefined ||
      u.add_targets !== undefined,
    { message: 'an update needs at least one of status, caption, scheduled_at, add_targets' },
  );
export type UpdatePostRequest = z.infer<typeof UpdatePostRequest>;
export const UpdatePostResponse = z.looseObject({ post_id: z.string(), social_posts: z.array(Delivery) });
export type UpdatePostResponse = z.infer<typeof UpdatePostResponse>;

export const DeletePostRequest = z.object({ id: z.string().min(1) });
export type DeletePostRequest = z.infer<typeof DeletePostRequest>;
export const SuccessResponse = z.looseObject({ success: z.boolean() });
export type SuccessResponse = z.infer<typeof SuccessResponse>;
