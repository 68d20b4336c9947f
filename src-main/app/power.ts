/**
 * Sleep and wake. On suspend the executor pauses (a run must not start as the lid closes); on resume it
 * continues and applies its missed-occurrence policy to what fell due meanwhile. A pause the user chose
 * before sleeping is left as it is. Locking the screen changes nothing: automations run while locked.
 */
import type { PowerMonitor } from 'electron';
import type { ExecutorPauseControl, Logger } from './capabilities';
import { DisposableStore, listen, type Disposable } from '../core/common/events';
import { errorText } from '../core/common/error-text';
import { sleepNotice, type SleepNotice } from '../core/gaps/decisions';
import type { Occurrence } from '../core/gaps/upcoming';

export type PowerHandlerDeps = Readonly<{
  monitor: Pick<PowerMonitor, 'on' | 'removeListener'>;
  executor: ExecutorPauseControl;
  log: Logger;
  /** The OS is shutting down (Linux, macOS): quit through the normal drain. */
  onShutdown: () => void;
  /** The next occurrences of the automations this computer runs: one due within the hour is told at suspend. */
  upcoming?: () => readonly Occurrence[];
  /** Shows the notice (where the OS allows notifications). */
  notify?: (notice: SleepNotice) => void;
  now?: () => Date;
}>;

export class PowerHandler implements Disposable {
  private pausedForSleep = false;
  private readonly store = new DisposableStore();

  constructor(private readonly deps: PowerHandlerDeps) {
    const { monitor } = deps;
    this.store.add(listen(monitor, 'suspend', () => this.onSuspend()));
    this.store.add(listen(monitor, 'resume', () => this.onResume()));
    this.store.add(
      listen(monitor, 'shutdown', (event?: Electron.Event) => {
        // preventDefault asks the OS for time to exit cleanly; we then quit as soon as we can.
        event?.preventDefault();
        deps.onShutdown();
      }),
    );
  }

  private onSuspend(): void {
    const { executor, log, upcoming, notify } = this.deps;
    if (upcoming && notify) {
      try {
        const notice = sleepNotice(upcoming(), (this.deps.now ?? (() => new Date()))());
        if (notice) notify(notice);
      } catch (error) {
        log.warn('could not tell of an automation due during sleep', { error: errorText(error) });
      }
    }
    if (this.pausedForSleep || executor.isPaused()) return;
    executor.pause();
    this.pausedForSleep = true;
    log.info('suspend: executor paused');
  }

  private onResume(): void {
    const { executor, log } = this.deps;
    if (!this.pausedForSleep) return;
    this.pausedForSleep = false;
    executor.resume();
    log.info('resume: executor resumed, applying the missed-run policy');
    executor.runMissed('sleep').catch((error: unknown) => {
      log.error('missed-run policy failed after resume', { error: errorText(error) });
    });
  }

  dispose(): void {
    this.store.dispose();
  }
}
