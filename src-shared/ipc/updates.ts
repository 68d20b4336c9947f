import { z } from 'zod';
import { event, invoke } from './define';
import { NoInput } from './common';

/**
 * The desktop updater's state as Settings shows it. Declared here so the bridge carries it as is;
 * src-main/app/update-state.ts re-exports it for the shell.
 */
export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export const UpdateChannel = z.enum(UPDATE_CHANNELS);
export type UpdateChannel = z.infer<typeof UpdateChannel>;

export const UPDATE_PHASES = [
  /** Not packaged (a dev run) or no feed configured: nothing is checked. */
  'disabled',
  /** This host does not update itself (`postdesk web`): the desktop app manages updates. */
  'unsupported',
  'idle',
  'checking',
  'up-to-date',
  'downloading',
  /** Downloaded; installs at the next idle moment or on "restart now". */
  'downloaded',
  /** Downloaded, and held back because runs or uploads are in progress. */
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

export const UpdateState = z.object({
  phase: UpdatePhase,
  channel: UpdateChannel,
  currentVersion: z.string(),
  /** The version found or downloaded. */
  availableVersion: z.string().nullable(),
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
