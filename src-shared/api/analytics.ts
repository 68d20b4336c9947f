import { z } from 'zod';
import { LIMITS } from './limits';
import { DateTime, Platform } from './common';

export const AnalyticsQuery = z.object({
  platform: Platform.optional(),
  account_id: z.string().optional(),
  post_id: z.string().optional(),
  start_date: DateTime.optional(),
  end_date: DateTime.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(LIMITS.pageSizeMax)
    .default(LIMITS.pageSizeDefault.analytics)
    .optional(),
});
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

export const Metrics = z.looseObject({
  impressions: z.number(),
  likes: z.number(),
  comments: z.number(),
  shares: z.number(),
});
export type Metrics = z.infer<typeof Metrics>;

/** Overview or single post: members are the sandbox's (docs/sandbox.md); both carry `totals`. */
export const AnalyticsResponse = z.looseObject({
  totals: Metrics,
  by_platform: z.array(z.looseObject({ platform: Platform }).and(Metrics)).optional(),
  by_account: z.array(z.looseObject({ account_id: z.string() }).and(Metrics)).optional(),
  by_day: z.array(z.looseObject({ date: z.string() }).and(Metrics)).optional(),
  top_posts: z.array(z.looseObject({ post_id: z.string() }).and(Metrics)).optional(),
  post: z.looseObject({ id: z.string() }).optional(),
  deliveries: z.array(z.looseObject({ id: z.string() })).optional(),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
