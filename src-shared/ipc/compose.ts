import { z } from 'zod';
import { UploadContentType } from '../api/media';
import { invoke } from './define';
import { NoInput } from './common';
import { MediaFile } from './media';

/** How the composer sends the post: what its "When" switch says. */
export const ComposeWhen = z.enum(['now', 'schedule', 'draft']);
export type ComposeWhen = z.infer<typeof ComposeWhen>;

/**
 * What a post being written holds, as the page sends it to be kept. Media are the asset ids of uploads
 * main made for this connection (main keeps only those it knows), never a path. The bounds are loose:
 * a draft may be over the service's limits while it is written; the composer says so before sending.
 */
export const ComposeDraftContent = z.object({
  caption: z.string().max(20_000),
  account_ids: z.array(z.string().min(1).max(200)).max(100),
  media: z.array(z.string().min(1).max(200)).max(50),
  when: ComposeWhen,
  /** The `datetime-local` text of a scheduled time, in the page's zone. */
  local_at: z.string().max(40),
});
export type ComposeDraftContent = z.infer<typeof ComposeDraftContent>;

/** A file this connection has already uploaded: reusable in a post without uploading it again. */
export const LibraryItem = z.object({
  asset_id: z.string(),
  public_url: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  content_type: UploadContentType,
  uploaded_at: z.string(),
  /** The file as the composer lists it; its `preview_url` is null when the file is no longer on this computer. */
  file: MediaFile,
});
export type LibraryItem = z.infer<typeof LibraryItem>;

export const ComposeDraftSummary = z.object({
  id: z.uuid(),
  created_at: z.string(),
  updated_at: z.string(),
  caption: z.string(),
  account_count: z.number().int().nonnegative(),
  media_count: z.number().int().nonnegative(),
});
export type ComposeDraftSummary = z.infer<typeof ComposeDraftSummary>;

/** A kept draft as the composer restores it: its media resolved to library items. */
export const ComposeDraft = ComposeDraftContent.omit({ media: true }).extend({
  id: z.uuid(),
  created_at: z.string(),
  updated_at: z.string(),
  media: z.array(LibraryItem),
});
export type ComposeDraft = z.infer<typeof ComposeDraft>;

const ById = z.object({ id: z.uuid() });

/**
 * Posts being written, kept by main per connection (so both hosts keep them, across reloads and crashes),
 * and the library of media already uploaded. The "current" draft is the one the composer shows.
 */
export const compose = {
  /** The draft the composer was showing for this connection, or null after "New post". */
  current: invoke(NoInput, z.object({ draft: ComposeDraft.nullable() })),
  /** Keeps a draft (a new one when `id` is null) and makes it the current one. */
  save: invoke(
    z.object({ id: z.uuid().nullable(), content: ComposeDraftContent }),
    z.object({ draft: ComposeDraftSummary }),
  ),
  /** Makes a kept draft the current one and answers it. */
  open: invoke(ById, z.object({ draft: ComposeDraft })),
  /** "New post": no draft is current; the one that was stays kept. */
  startNew: invoke(NoInput, z.object({ started: z.literal(true) })),
  /** Kept drafts of this connection, newest first. */
  drafts: invoke(NoInput, z.object({ drafts: z.array(ComposeDraftSummary) })),
  /** Forgets a draft (sent, or discarded by the person). */
  discard: invoke(ById, z.object({ discarded: z.boolean() })),
  /** Media this connection has uploaded, newest first. */
  library: invoke(NoInput, z.object({ items: z.array(LibraryItem) })),
} as const;
