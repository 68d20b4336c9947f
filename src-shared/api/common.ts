import { z } from 'zod';
import { LIMITS } from './limits';

export const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'linkedin', 'x'] as const;
export const Platform = z.enum(PLATFORMS);
export type Platform = z.infer<typeof Platform>;

export const Uuid = z.uuid();
export const DateTime = z.iso.datetime({ offset: true });
export const Caption = z.string().max(LIMITS.captionLength);

export const Target = z.object({
  social_account_id: Uuid,
  platform: Platform,
  settings: z.record(z.string(), z.unknown()).optional(),
});
export type Target = z.infer<typeof Target>;

/** A page size query parameter: 1 to 100 with a per-operation default. */
export const pageLimit = (fallback: number) =>
  z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(fallback);

export const Slide = z.object({
  text: z.string().max(LIMITS.slideTextLength).optional(),
  url: z.url(),
  aspect_ratio: z.string().default('9:16').optional(),
});
export type Slide = z.infer<typeof Slide>;
