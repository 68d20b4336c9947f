/** Every numeric limit of service-api.md, named once. Clients check against these before sending. */
export const MiB = 1024 * 1024;

export const LIMITS = {
  captionLength: 2200,
  slideTextLength: 500,
  addTargetsPerUpdate: 12,
  publishedTargets: 12,
  mediaUrls: 10,
  slides: 10,
  mediaPerPost: 10,
  bulkBatchSize: 100,
  bulkUpdateSize: 100,
  pageSizeMax: 100,
  pageSizeDefault: { posts: 50, articles: 50, bulkInspect: 100, analytics: 20 },
  imageUploadBytes: 15 * MiB,
  mp4UploadBytes: 200 * MiB,
  directUploadBytes: 64 * MiB,
  directUploadTitle: { min: 1, max: 100 },
  /** A post's title: the sandbox's choice (docs/sandbox.md), the same as a direct upload's. */
  postTitle: 100,
  executorName: 100,
  agentType: 50,
  idempotencyKey: 200,
  runFailureMessage: 1000,
  presignedUploadMs: 10 * 60 * 1000,
  runTokenMs: 6 * 60 * 60 * 1000,
  apiKeyDays: 365,
  mediaPendingUploads: 10,
  mediaObjects: 2000,
  mediaStorageBytes: 20 * 1024 * MiB,
  leaseSeconds: { min: 60, max: 3600, default: 900 },
} as const;

/** Not the service's: the longest local path (or program argument) a setting or a file pick holds. */
export const LOCAL_PATH_MAX = 4096;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const UPLOAD_CONTENT_TYPES = [...IMAGE_TYPES, 'video/mp4'] as const;

/** The size limit of a managed upload of this content type. */
export function uploadLimitFor(contentType: (typeof UPLOAD_CONTENT_TYPES)[number]): number {
  return contentType === 'video/mp4' ? LIMITS.mp4UploadBytes : LIMITS.imageUploadBytes;
}
