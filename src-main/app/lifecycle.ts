/**
 * Closing the window keeps Postdesk in the tray; Quit really quits, but only after the work in progress
 * has ended: runs and uploads finish within a grace period or are failed with their reason, never
 * dropped. The same drain runs before an update installs.
 */
import type { App, BrowserWindow } from 'electron';
import type { ActiveRun, ActiveUpload, ExecutorDrain, Logger, UploadQueueControl } from './capabilities';
import { DisposableStore, listen, type Disposable } from '../core/common/events';
import { errorText } from '../core/common/error-text';
import { quitQuestion, type QuitQuestion } from '../core/gaps/decisions';
import type { Occurrence } from '../core/gaps/upcoming';

export const DEFAULT_GRACE_MS = 30_000;

export type QuitReason = 'quit' | 'update';

export type DrainReport = Readonly<{
  /** Runs and uploads still active after the grace period (and its settling time), failed with `reason`. */
  failedRuns: readonly ActiveRun[];
  failedUploads: readonly ActiveUpload[];
  reason: string;
}>;

export type QuitCoordinatorDeps = Readonly<{
  app: Pick<App, 'on' | 'removeListener' | 'exit' | 'quit'>;
  /** The next occurrences of the automations this computer runs: a quit with one due soon asks first. */
  upcoming?: () => readonly Occurrence[];
  /** Asks the person (main's own dialog); true: quit. Absent: never asked. */
  askToQuit?: (question: QuitQuestion) => Promise<boolean>;
  now?: () => Date;
  executor: ExecutorDrain;
  uploads: Pick<UploadQueueControl, 'activeUploads' | 'drain' | 'failUpload'>;
  log: Logger;
  graceMs?: number;
  /** Extra time, past the grace, for `stop`/`drain` to settle before we stop waiting for them. */
  settleMs?: number;
  /** How long the failure reports may take before we exit anyway. */
  reportMs?: number;
  /** Called once the drain is done (tray and timers go away here). */
  onDrained?: (report: DrainReport) => void;
  /** Awaited (up to `reportMs`) after the drain and before `exit(0)`: close the store and the core. */
  beforeExit?: () => Promise<void> | void;
  /**
   * Asked last, instead of `exit(0)`: true when something else ends the process (an update that
   * installs at quit, whose installer quits the app). Should the app still be running after
   * `takeoverMs`, it exits anyway.
   */
  takeOverExit?: () => boolean;
  takeoverMs?: number;
}>;

const seconds = (ms: number): number => Number((ms / 1000).toFixed(ms < 1000 ? 2 : 0));

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref?.());

export class QuitCoordinator {
  private drainPromise: Promise<DrainReport> | null = null;
  private drained = false;
  /** The person said quit (or nothing needed asking, or the OS is shutting down): do not ask again. */
  private settled = false;
  private asking = false;
  private readonly graceMs: number;

  constructor(private readonly deps: QuitCoordinatorDeps) {
    this.graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;
  }

  /** True from the first quit request on: windows may then really close. */
  get isQuitting(): boolean {
    return this.drainPromise !== null;
  }

  /**
   * Listens for `before-quit`. The first one is held (preventDefault) while the drain runs, then the app
   * exits; later ones during the drain are held too but start nothing. Once drained (the update path
   * drains before `quitAndInstall`), `before-quit` passes so the updater's own quit proceeds.
   */
  install(): Disposable {
    const store = new DisposableStore();
    store.add(
      listen(this.deps.app, 'before-quit', (event: Electron.Event) => {
        if (this.drained) return;
        event.preventDefault();
        if (this.drainPromise === null && !this.settled) {
          const question = this.question();
          if (question) {
            this.ask(question);
            return;
          }
          this.settled = true;
        }
        const first = this.drainPromise === null;
        const done = this.drain('quit');
        if (first) void done.then(() => this.finish()).then(() => this.exit());
      }),
    );
    // With a listener here Electron no longer quits when the last window closes: the tray keeps us alive.
    store.add(listen(this.deps.app, 'window-all-closed', () => {}));
    return store;
  }

  /** Quits without asking (the OS is shutting down, or an update installs). */
  quitNow(): void {
    this.settled = true;
    this.deps.app.quit();
  }

  /** What to ask before quitting (the core decides, `quitQuestion`), or null: quit without asking. */
  private question(): QuitQuestion | null {
    const { upcoming, askToQuit, log } = this.deps;
    if (!upcoming || !askToQuit) return null;
    try {
      return quitQuestion(upcoming(), (this.deps.now ?? (() => new Date()))());
    } catch (e) {
      log.warn('could not look at the automations due; quitting without asking', { error: errorText(e) });
      return null;
    }
  }

  /**
   * Quitting while this computer's automations are due soon asks first, naming the next one. Keep running:
   * nothing happens. Quit: the usual drain. A dialog that fails does not hold the quit.
   */
  private ask(question: QuitQuestion): void {
    const { askToQuit, log } = this.deps;
    if (this.asking || !askToQuit) return;
    this.asking = true;
    void askToQuit(question)
      .catch((e: unknown) => {
        log.warn('the quit question could not be shown; quitting', { error: errorText(e) });
        return true;
      })
      .then((quit) => {
        this.asking = false;
        log.info(quit ? 'quit confirmed with automations due' : 'quit cancelled: automations are due', {
          next: question.next.automationName,
        });
        if (quit) this.quitNow();
      });
  }

  private exit(): void {
    const { app } = this.deps;
    if (!this.deps.takeOverExit?.()) {
      app.exit(0);
      return;
    }
    const fallback = setTimeout(() => app.exit(0), this.deps.takeoverMs ?? 15_000);
    fallback.unref?.();
    const quitting = listen(app, 'quit', () => {
      clearTimeout(fallback);
      quitting.dispose();
    });
  }

  private async finish(): Promise<void> {
    const close = this.deps.beforeExit;
    if (!close) return;
    const closing = Promise.resolve()
      .then(close)
      .catch((e: unknown) => this.deps.log.error('closing before exit failed', { error: errorText(e) }));
    await Promise.race([closing, delay(this.deps.reportMs ?? 5_000)]);
  }

  /** Runs the drain once; every caller gets the same result. */
  drain(why: QuitReason): Promise<DrainReport> {
    this.drainPromise ??= this.runDrain(why).then((report) => {
      this.drained = true;
      this.deps.onDrained?.(report);
      return report;
    });
    return this.drainPromise;
  }

  private async runDrain(why: QuitReason): Promise<DrainReport> {
    const { executor, uploads, log } = this.deps;
    const graceMs = this.graceMs;
    // The cause goes to the executor, which words its own failures as "<cause> and the run did not
    // finish within the N s grace period"; our backstop uses the same words.
    const cause = why === 'update' ? 'Postdesk restarted to install an update' : 'Postdesk quit';
    const reason = `${cause} and the work did not finish within the ${seconds(graceMs)} s grace period`;
    log.info('quitting: waiting for work in progress', {
      why,
      graceMs,
      runs: executor.activeRuns().length,
      uploads: uploads.activeUploads().length,
    });

    const settled = Promise.allSettled([
      executor
        .stop({ graceMs, reason: cause })
        .catch((e: unknown) => log.error('executor stop failed', { error: errorText(e) })),
      uploads
        .drain({ graceMs })
        .catch((e: unknown) => log.error('upload drain failed', { error: errorText(e) })),
    ]);
    await Promise.race([settled, delay(graceMs + (this.deps.settleMs ?? 2_000))]);

    // Whatever is still active is failed with its reason, so the service and the UI know what happened.
    const failedRuns = executor.activeRuns();
    const failedUploads = uploads.activeUploads();
    if (failedRuns.length > 0 || failedUploads.length > 0) {
      log.warn('quitting: failing work that outlived the grace period', {
        runs: failedRuns.map((r) => r.id),
        uploads: failedUploads.map((u) => u.id),
      });
      const reports = Promise.allSettled([
        ...failedRuns.map((r) => executor.failRun(r.id, reason)),
        ...failedUploads.map((u) => uploads.failUpload(u.id, reason)),
      ]).then((results) => {
        for (const r of results) {
          if (r.status === 'rejected')
            log.error('could not record a failure before quitting', { error: String(r.reason) });
        }
      });
      await Promise.race([reports, delay(this.deps.reportMs ?? 5_000)]);
    }
    return { failedRuns, failedUploads, reason };
  }
}

/** Closing the window hides it to the tray, unless we are quitting. */
export function keepInTrayOnClose(
  win: Pick<BrowserWindow, 'on' | 'removeListener' | 'hide'>,
  isQuitting: () => boolean,
): Disposable {
  return listen(win, 'close', (event: Electron.Event) => {
    if (isQuitting()) return;
    event.preventDefault();
    win.hide();
  });
}
