/** The updater's state as Settings shows it (schemas in src-shared/ipc/updates.ts) and its notices. */
import type { UpdateState } from '../../src-shared/ipc/updates';
import type { UpdateChannel } from '../../src-shared/settings';

// The schemas moved to the bridge contract; the shell keeps importing them from here.
export { Activity, RELEASE_NOTES_MAX, UpdatePhase, UpdateState } from '../../src-shared/ipc/updates';
export type { UpdateChannel } from '../../src-shared/settings';

/** A state in `phase` with nothing learned yet: no release seen, no download, no error. */
export function freshUpdateState(
  phase: UpdateState['phase'],
  channel: UpdateChannel,
  currentVersion: string,
): UpdateState {
  return {
    phase,
    channel,
    currentVersion,
    availableVersion: null,
    releaseNotes: null,
    progress: null,
    waitingFor: null,
    restartRequested: false,
    error: null,
    lastCheckedAt: null,
  };
}

export type UpdateNotice = Readonly<{ level: 'info' | 'warning'; message: string }>;

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What the window tells the user when the update state moves on (null: nothing worth a notice). */
export function updateNotice(state: UpdateState): UpdateNotice | null {
  const version = state.availableVersion ? `Postdesk ${state.availableVersion}` : 'The update';
  if (state.phase === 'waiting-for-idle' && state.waitingFor) {
    const { activeRuns, activeUploads } = state.waitingFor;
    const work = [
      activeRuns > 0 ? count(activeRuns, 'run', 'runs') : null,
      activeUploads > 0 ? count(activeUploads, 'upload', 'uploads') : null,
    ]
      .filter(Boolean)
      .join(', ');
    return {
      level: 'info',
      message: `${version} is ready and installs when the work in progress ends (${work}).`,
    };
  }
  if (state.phase === 'downloaded' && !state.restartRequested)
    return {
      level: 'info',
      message: `${version} is ready. It installs when you quit Postdesk, or choose Restart now in Settings.`,
    };
  if (state.phase === 'installing')
    return { level: 'info', message: `${version} is installing; Postdesk restarts.` };
  if (state.phase === 'error' && state.error) return { level: 'warning', message: `Update: ${state.error}` };
  return null;
}
