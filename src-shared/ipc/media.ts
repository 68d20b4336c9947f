import { z } from 'zod';
import { UploadContentType } from '../api/media';
import { event, invoke } from './define';
import { GrantId, LocalId, NoInput } from './common';
import { SkippedFile } from './files';

export const MediaKind = z.enum(['image', 'video', 'other']);
export type MediaKind = z.infer<typeof MediaKind>;

/** A granted file registered for posting, under its own opaque id. */
export const MediaFile = z.object({
  id: LocalId,
  name: z.string(),
  size: z.number().int().nonnegative(),
  /** Null when the file is not an uploadable type (only image/jpeg, png, webp and video/mp4 are). */
  content_type: UploadContentType.nullable(),
  kind: MediaKind,
  /** `postdesk-media://…` in Electron, a same-origin URL in `postdesk web`; null when not previewable. */
  preview_url: z.string().nullable(),
});
export type MediaFile = z.infer<typeof MediaFile>;

export const MediaAddResult = z.object({ files: z.array(MediaFile), skipped: z.array(SkippedFile) });
export type MediaAddResult = z.infer<typeof MediaAddResult>;

export const MediaAddInput = z.object({
  /** Grants of files or folders the user chose (see `files`); a folder adds its media files. Never paths. */
  grants: z.array(GrantId).min(1).max(500),
});
export type MediaAddInput = z.infer<typeof MediaAddInput>;

export const MediaCheck = z.object({
  level: z.enum(['error', 'warning', 'info']),
  code: z.string(),
  message: z.string(),
  /** `convert`: `media:convert` makes an MP4 the service accepts (a WebM, a MOV, an MP4 too large). */
  fix: z.enum(['convert']).optional(),
});
export type MediaCheck = z.infer<typeof MediaCheck>;

/** The media pipeline's verdict: detected type, probe facts and its checks. `ok` is false on any error. */
export const MediaInspection = z.object({
  id: LocalId,
  ok: z.boolean(),
  content_type: UploadContentType.nullable(),
  checks: z.array(MediaCheck),
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  duration_seconds: z.number().nullable().optional(),
});
export type MediaInspection = z.infer<typeof MediaInspection>;

export const MediaUploaded = z.object({
  id: LocalId,
  asset_id: z.string(),
  public_url: z.string(),
  already_uploaded: z.boolean(),
});
export type MediaUploaded = z.infer<typeof MediaUploaded>;

export const HashProgress = z.object({
  id: LocalId,
  bytes_done: z.number().int().nonnegative(),
  bytes_total: z.number().int().nonnegative(),
});
export type HashProgress = z.infer<typeof HashProgress>;

export const UploadProgress = z.object({
  id: LocalId,
  phase: z.enum(['reserving', 'uploading', 'completing', 'done', 'failed']),
  bytes_sent: z.number().int().nonnegative(),
  bytes_total: z.number().int().nonnegative(),
  message: z.string().nullable().optional(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;

/** How far a `media:convert` has come; `percent` is null while the length of the video is not known yet. */
export const ConvertProgress = z.object({
  id: LocalId,
  percent: z.number().min(0).max(100).nullable(),
});
export type ConvertProgress = z.infer<typeof ConvertProgress>;

const ById = z.object({ id: LocalId });

/** Which ffmpeg or ffprobe Postdesk runs, and why (Settings' Media tools card; `postdesk doctor` says the same). */
export const MediaTool = z.object({
  name: z.enum(['ffmpeg', 'ffprobe']),
  /** Null when none is found (then `note` says what to do). */
  path: z.string().nullable(),
  /** `setting`: the one chosen in Settings or the environment; `npm`: bundled with Postdesk; `path`: the system's. */
  source: z.enum(['setting', 'npm', 'path']).nullable(),
  version: z.string().nullable(),
  /** At least 5.1 (or a snapshot from 2023 on): see MIN_RELEASE in src-main/core/media/tools.ts. */
  recent: z.boolean(),
  /** What the person should know: none found, or an old build in use. */
  note: z.string().nullable(),
});
export type MediaTool = z.infer<typeof MediaTool>;
export const MediaTools = z.object({ ffmpeg: MediaTool, ffprobe: MediaTool });
export type MediaTools = z.infer<typeof MediaTools>;

export const media = {
  add: invoke(MediaAddInput, MediaAddResult),
  inspect: invoke(ById, MediaInspection),
  /** Hashes (didHashProgress), reserves, PUTs (didUploadProgress) and completes; returns the asset. */
  upload: invoke(ById, MediaUploaded),
  remove: invoke(ById, z.object({ removed: z.boolean() })),
  /**
   * Converts an added file the service does not take as it is (a check with `fix: "convert"`) to an MP4 it
   * does, in main, with `didConvertProgress`; answers the converted copy, added as a new file. The original
   * is left as it was.
   */
  convert: invoke(ById, MediaFile),
  /** Which ffmpeg and ffprobe are used, with their versions; finding them runs each one's `-version` once. */
  tools: invoke(NoInput, MediaTools),
  didConvertProgress: event(ConvertProgress),
  didHashProgress: event(HashProgress),
  didUploadProgress: event(UploadProgress),
} as const;
