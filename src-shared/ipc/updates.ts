import { z } from 'zod';
import { event, invoke } from './define';
import { NoInput } from './common';
import { UpdateChannel } from '../settings';

/**
 * The desktop updater's state as Settings shows it. Declared here so the bridge carries it as is;
 * src-main/app/update-state.ts re-exports it for the shell.
 */

export const UPDATE_PHASES = [
  /** Not packaged (a dev run) or no feed configured: nothing is checked. */
  'disabled',
  /** This host does not update itself (`postdesk web`): the desktop app manages updates. */
  'unsupported',
  'idle',
  'checking',
  'up-to-date',
  'downloading',
  /** Downloaded; installs at the next quit, or on "restart now". */
  'downloaded',
  /** "Restart now" was chosen; held back until the runs and uploads in progress (`waitingFor`) end. */
  'waiting-for-idle',
  'installing',
  'error',
] as const;
export const UpdatePhase = z.enum(UPDATE_PHASES);
export type UpdatePhase = z.infer<typeof UpdatePhase>;

export const UpdateProgress = z.object({
  percent: z.number().min(0).max(100),
  transferred: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  bytesPerSecond: z.number().nonnegative(),
});
export type UpdateProgress = z.infer<typeof UpdateProgress>;

export const Activity = z.object({
  activeRuns: z.number().int().nonnegative(),
  activeUploads: z.number().int().nonnegative(),
});
export type Activity = z.infer<typeof Activity>;

/** Release notes longer than this are cut (they come from the release feed, over the network). */
export const RELEASE_NOTES_MAX = 20_000;

export const UpdateState = z.object({
  phase: UpdatePhase,
  channel: UpdateChannel,
  currentVersion: z.string(),
  /** The version found or downloaded. */
  availableVersion: z.string().nullable(),
  /**
   * The available version's release notes, as Markdown (shown as text: raw HTML is never rendered).
   * Absent or null: the release has none.
   */
  releaseNotes: z.string().max(RELEASE_NOTES_MAX).nullish(),
  progress: UpdateProgress.nullable(),
  /** What holds the install back, in `waiting-for-idle`. */
  waitingFor: Activity.nullable(),
  /** True once the user chose "restart now": the install happens as soon as the work in progress ends. */
  restartRequested: z.boolean(),
  error: z.string().nullable(),
  lastCheckedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type UpdateState = z.infer<typeof UpdateState>;

/** Auto-update of the desktop app. `postdesk web` answers phase `unsupported` to all three. */
export const updates = {
  state: invoke(NoInput, UpdateState),
  /** Checks the feed now; resolves once the check is done (a download continues in the background). */
  check: invoke(NoInput, UpdateState),
  /** Installs a downloaded update as soon as no run or upload is in progress (never mid-run). */
  restartNow: invoke(NoInput, UpdateState),
  didChangeUpdateState: event(UpdateState),
} as const;
