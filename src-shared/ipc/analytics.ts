import { z } from 'zod';
import { AnalyticsQuery, AnalyticsResponse } from '../api/analytics';
import { invoke } from './define';

export const analytics = {
  /** By platform, account and date range. */
  overview: invoke(AnalyticsQuery.omit({ post_id: true }), AnalyticsResponse),
  /** A single post's figures. */
  post: invoke(z.object({ post_id: z.string().min(1) }), AnalyticsResponse),
} as const;
