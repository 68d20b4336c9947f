import type { Platform } from './common';
import { UPLOAD_CONTENT_TYPES } from './limits';
import type { UploadContentType } from './media';

/**
 * The platforms an auto-mode run reaches by a direct upload, which takes only MP4 (contract: "Only MP4 is
 * accepted"); every other target takes any upload content type as a media URL.
 */
export const DIRECT_UPLOAD_PLATFORMS = ['tiktok', 'youtube'] as const satisfies readonly Platform[];
export type DirectUploadPlatform = (typeof DIRECT_UPLOAD_PLATFORMS)[number];

export const isDirectUploadPlatform = (p: Platform): p is DirectUploadPlatform =>
  (DIRECT_UPLOAD_PLATFORMS as readonly string[]).includes(p);

/**
 * The media an automation's run can publish, by content type: what every target accepts. An auto-mode
 * automation with a TikTok or YouTube target needs an MP4; any other takes every upload type.
 */
export function acceptedUploadTypes(a: {
  readonly execution_mode: string;
  readonly targets: readonly { readonly platform: Platform }[];
}): readonly UploadContentType[] {
  const direct = a.execution_mode === 'auto' && a.targets.some((t) => isDirectUploadPlatform(t.platform));
  return direct ? ['video/mp4'] : UPLOAD_CONTENT_TYPES;
}
