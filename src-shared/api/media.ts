import { z } from 'zod';
import { UPLOAD_CONTENT_TYPES, uploadLimitFor } from './limits';
import { DateTime, Uuid } from './common';

export const UploadContentType = z.enum(UPLOAD_CONTENT_TYPES);
export type UploadContentType = z.infer<typeof UploadContentType>;
export const Sha256Hex = z.string().regex(/^[a-f0-9]{64}$/, 'must match ^[a-f0-9]{64}$');
export const Md5Hex = z.string().regex(/^[a-f0-9]{32}$/, 'must match ^[a-f0-9]{32}$');

export const MediaReservationRequest = z
  .object({
    asset_id: Uuid.optional(),
    content_type: UploadContentType,
    content_length: z.number().int().min(1),
    content_sha256: Sha256Hex,
    content_md5: Md5Hex,
  })
  .superRefine((r, ctx) => {
    const max = uploadLimitFor(r.content_type);
    if (r.content_length > max) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: max,
        inclusive: true,
        path: ['content_length'],
        message: `content_length ${r.content_length} exceeds the ${r.content_type} limit of ${max} bytes (${max / 1024 / 1024} MiB)`,
      });
    }
  });
export type MediaReservationRequest = z.infer<typeof MediaReservationRequest>;

export const MediaAsset = z.looseObject({
  id: z.string(),
  public_url: z.url(),
  media_type: z.string(),
  mime_type: z.string(),
  bytes: z.number().int(),
  metadata: z.record(z.string(), z.unknown()),
});
export type MediaAsset = z.infer<typeof MediaAsset>;

export const MediaReservationResponse = z.looseObject({
  asset_id: z.string(),
  already_uploaded: z.boolean(),
  upload_url: z.url().nullable().optional(),
  upload_method: z.literal('PUT').optional(),
  upload_headers: z.record(z.string(), z.string()).optional(),
  expires_at: DateTime.nullable().optional(),
  media: MediaAsset.nullable().optional(),
  next: z.string().optional(),
});
export type MediaReservationResponse = z.infer<typeof MediaReservationResponse>;

export const CompleteUploadRequest = z.object({ asset_id: Uuid });
export type CompleteUploadRequest = z.infer<typeof CompleteUploadRequest>;
