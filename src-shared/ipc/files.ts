import { z } from 'zod';
import { invoke } from './define';
import { GrantId } from './common';
import { LOCAL_PATH_MAX } from '../api/limits';

/** A file or folder main granted: its id, and what the page may show of it (never its path). */
export const GrantedFile = z.object({
  grant: GrantId,
  name: z.string(),
  size: z.number().int().nonnegative(),
  folder: z.boolean(),
});
export type GrantedFile = z.infer<typeof GrantedFile>;

export const SkippedFile = z.object({ name: z.string(), reason: z.string() });
export type SkippedFile = z.infer<typeof SkippedFile>;

export const GrantedFiles = z.object({ files: z.array(GrantedFile), skipped: z.array(SkippedFile) });
export type GrantedFiles = z.infer<typeof GrantedFiles>;

export const PickInput = z.object({
  /** What the files are for: the dialog's title and filters. */
  purpose: z.enum(['media', 'csv']),
  /** Choose one folder instead of files (media only). */
  folder: z.boolean().optional(),
});
export type PickInput = z.infer<typeof PickInput>;

export const files = {
  /**
   * Main's own open dialog: what the user chooses comes back as grants (none when cancelled). Hosts
   * without a dialog of their own (`postdesk web`) answer `unavailable`: the page picks and uploads instead.
   */
  pick: invoke(PickInput, GrantedFiles),
} as const;

/**
 * The preload's own channel: the paths of files the user dropped or picked, read with
 * `webUtils.getPathForFile`, for main to grant. It is not in the contract, so the page cannot name it
 * and `postdesk web` never serves it.
 */
export const DROP_GRANT_CHANNEL = 'files:grantDropped';
export const DropGrantInput = z.object({
  items: z
    .array(z.object({ path: z.string().min(1).max(LOCAL_PATH_MAX), name: z.string().max(300) }))
    .min(1)
    .max(500),
});
export type DropGrantInput = z.infer<typeof DropGrantInput>;
