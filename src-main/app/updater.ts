/**
 * Auto-update from releases (electron-updater; the feed is the packaging config's `publish`, written to
 * app-update.yml at build). It checks at start and every 4 hours and downloads in the background. It
 * installs only when no run and no upload is in progress, or when the user chooses "restart now", and
 * even then not before the work in progress has ended: it never installs mid-run
 * (desktop/desktop#22731, actions/runner#1812).
 */
import * as electronUpdater from 'electron-updater';
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import type { AppUpdaterEvents } from 'electron-updater/out/AppUpdater';
import type { ExecutorActivity, Logger, UploadQueueControl } from './capabilities';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../core/common/events';
import { errorText } from '../core/common/error-text';
import type { Activity, UpdateChannel, UpdateState } from './update-state';

export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export type UpdateDecision =
  | Readonly<{ kind: 'none' }>
  | Readonly<{ kind: 'defer'; waitingFor: Activity }>
  | Readonly<{ kind: 'install'; trigger: 'idle' | 'user' }>;

export type UpdatePolicyInput = Readonly<{
  downloaded: boolean;
  restartRequested: boolean;
  activity: Activity;
}>;

/** Pure: when may a downloaded update install? */
export class UpdatePolicy {
  decide(input: UpdatePolicyInput): UpdateDecision {
    if (!input.downloaded) return { kind: 'none' };
    const { activeRuns, activeUploads } = input.activity;
    // "Restart now" does not override this: it pauses the executor so the wait ends, then installs.
    if (activeRuns > 0 || activeUploads > 0)
      return { kind: 'defer', waitingFor: { activeRuns, activeUploads } };
    return { kind: 'install', trigger: input.restartRequested ? 'user' : 'idle' };
  }
}

/** The part of electron-updater's AppUpdater we drive. */
export type UpdaterEngine = Pick<
  AppUpdater,
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'allowPrerelease'
  | 'allowDowngrade'
  | 'channel'
  | 'logger'
  | 'checkForUpdates'
  | 'quitAndInstall'
  | 'on'
  | 'off'
>;

/**
 * electron-updater is CommonJS and defines `autoUpdater` with a lazy getter, which Node's ESM import of
 * CommonJS cannot see as a named export: take it from the default export when there is one.
 */
export function loadAutoUpdater(): AppUpdater {
  const mod = electronUpdater as typeof electronUpdater & { default?: typeof electronUpdater };
  return mod.default?.autoUpdater ?? mod.autoUpdater;
}

export type ActivitySource = Readonly<{
  snapshot: () => Activity;
  onDidChange: Event<void>;
}>;

/** Runs and uploads in progress, and a change event covering both. */
export function activityOf(
  executor: Pick<ExecutorActivity, 'activeRuns' | 'onDidChangeState'>,
  uploads: Pick<UploadQueueControl, 'activeUploads' | 'onDidChange'>,
): ActivitySource {
  return {
    snapshot: () => ({
      activeRuns: executor.activeRuns().length,
      activeUploads: uploads.activeUploads().length,
    }),
    onDidChange: (listener) => {
      const store = new DisposableStore();
      store.add(executor.onDidChangeState(listener));
      store.add(uploads.onDidChange(listener));
      return store;
    },
  };
}

export type UpdateServiceDeps = Readonly<{
  engine: UpdaterEngine;
  activity: ActivitySource;
  /** "Restart now" pauses the executor so no new run starts while we wait for the current ones. */
  executor: Readonly<{ pause: () => void; resume: () => void }>;
  /** Drains the work in progress and readies the app to quit (lifecycle's drain, lock release). */
  prepareToInstall: () => Promise<void>;
  /**
   * The installer did not start after the drain (the executor is stopped by then): the app should
   * relaunch rather than live on without an executor.
   */
  onInstallFailed?: () => void;
  channel: UpdateChannel;
  currentVersion: string;
  log: Logger;
  policy?: UpdatePolicy;
  intervalMs?: number;
  now?: () => Date;
}>;

/** Error texts for Settings: the first line, bounded; stacks and request dumps stay in the log. */
export function updateErrorText(error: unknown): string {
  const raw = errorText(error);
  const line = (raw.split('\n')[0] ?? '').trim() || 'update failed';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export class UpdateService implements Disposable {
  private readonly policy: UpdatePolicy;
  private readonly didChange = new Emitter<UpdateState>();
  readonly onDidChangeUpdateState: Event<UpdateState> = this.didChange.event;
  private readonly store = new DisposableStore();
  private current: UpdateState;
  private downloaded = false;
  private installing = false;
  private pausedForRestart = false;

  constructor(private readonly deps: UpdateServiceDeps) {
    this.policy = deps.policy ?? new UpdatePolicy();
    this.current = {
      phase: 'idle',
      channel: deps.channel,
      currentVersion: deps.currentVersion,
      availableVersion: null,
      progress: null,
      waitingFor: null,
      restartRequested: false,
      error: null,
      lastCheckedAt: null,
    };
    const { engine } = deps;
    engine.autoDownload = true;
    // Never install behind the user's back on quit: installs go through the policy only.
    engine.autoInstallOnAppQuit = false;
    engine.logger = {
      info: (m?: unknown) => deps.log.info(`updater: ${String(m)}`),
      warn: (m?: unknown) => deps.log.warn(`updater: ${String(m)}`),
      error: (m?: unknown) => deps.log.error(`updater: ${updateErrorText(m)}`),
    };
    this.applyChannel(deps.channel);
    this.subscribe();
  }

  state(): UpdateState {
    return this.current;
  }

  /** Checks now, then every `intervalMs`. */
  start(): Disposable {
    void this.checkNow();
    const timer = setInterval(() => {
      if (this.downloaded || this.installing) return;
      void this.checkNow();
    }, this.deps.intervalMs ?? CHECK_INTERVAL_MS);
    timer.unref?.();
    return this.store.add(toDisposable(() => clearInterval(timer)));
  }

  setChannel(channel: UpdateChannel): void {
    if (channel === this.current.channel) return;
    this.applyChannel(channel);
    this.set({ channel });
    if (!this.downloaded && !this.installing) void this.checkNow();
  }

  async checkNow(): Promise<void> {
    if (this.installing) return;
    try {
      const result = await this.deps.engine.checkForUpdates();
      if (result === null) this.set({ phase: 'disabled' });
      // The download continues in the background; its events move the state on.
      void result?.downloadPromise?.catch(() => {});
    } catch (error) {
      this.set({ phase: 'error', error: updateErrorText(error) });
    }
  }

  /** The user chose "restart now": install as soon as the work in progress has ended. */
  restartNow(): void {
    if (!this.downloaded || this.installing) return;
    this.set({ restartRequested: true });
    const activity = this.deps.activity.snapshot();
    if (activity.activeRuns > 0 && !this.pausedForRestart) {
      this.deps.executor.pause();
      this.pausedForRestart = true;
    }
    this.evaluate();
  }

  private applyChannel(channel: UpdateChannel): void {
    const { engine } = this.deps;
    engine.channel = channel === 'beta' ? 'beta' : 'latest';
    engine.allowPrerelease = channel === 'beta';
    // Setting `channel` turns downgrades on; leaving beta should wait for stable to catch up, not downgrade.
    engine.allowDowngrade = false;
  }

  private subscribe(): void {
    const { engine, activity } = this.deps;
    const on = <E extends keyof AppUpdaterEvents>(event: E, listener: AppUpdaterEvents[E]): void => {
      engine.on(event, listener);
      this.store.add(toDisposable(() => engine.off(event, listener)));
    };
    on('checking-for-update', () => this.set({ phase: 'checking', error: null }));
    on('update-not-available', () =>
      this.set({ phase: 'up-to-date', availableVersion: null, lastCheckedAt: this.nowIso() }),
    );
    on('update-available', (info: UpdateInfo) =>
      this.set({
        phase: 'downloading',
        availableVersion: info.version,
        progress: null,
        lastCheckedAt: this.nowIso(),
      }),
    );
    on('download-progress', (p: ProgressInfo) =>
      this.set({
        phase: 'downloading',
        progress: {
          percent: Math.min(100, Math.max(0, p.percent)),
          transferred: Math.max(0, Math.round(p.transferred)),
          total: Math.max(0, Math.round(p.total)),
          bytesPerSecond: Math.max(0, p.bytesPerSecond),
        },
      }),
    );
    on('update-downloaded', (info: UpdateInfo) => {
      this.downloaded = true;
      this.set({ phase: 'downloaded', availableVersion: info.version, progress: null, error: null });
      this.evaluate();
    });
    on('update-cancelled', () => this.set({ phase: 'idle', progress: null }));
    on('error', (error: Error) => {
      this.deps.log.error('update error', { error: updateErrorText(error) });
      this.set({ phase: 'error', error: updateErrorText(error), progress: null });
      if (this.installing) this.deps.onInstallFailed?.();
    });
    this.store.add(activity.onDidChange(() => this.evaluate()));
  }

  private evaluate(): void {
    if (this.installing) return;
    const decision = this.policy.decide({
      downloaded: this.downloaded,
      restartRequested: this.current.restartRequested,
      activity: this.deps.activity.snapshot(),
    });
    if (decision.kind === 'defer') {
      this.set({ phase: 'waiting-for-idle', waitingFor: decision.waitingFor });
    } else if (decision.kind === 'install') {
      void this.install(decision.trigger);
    }
  }

  private async install(trigger: 'idle' | 'user'): Promise<void> {
    this.installing = true;
    this.set({ phase: 'installing', waitingFor: null });
    this.deps.log.info('installing update', { trigger, version: this.current.availableVersion });
    try {
      await this.deps.prepareToInstall();
      this.deps.engine.quitAndInstall(true, true);
    } catch (error) {
      this.installing = false;
      if (this.pausedForRestart) {
        this.pausedForRestart = false;
        this.deps.executor.resume();
      }
      this.set({ phase: 'error', error: updateErrorText(error) });
    }
  }

  private nowIso(): string {
    return (this.deps.now ?? (() => new Date()))().toISOString();
  }

  private set(patch: Partial<UpdateState>): void {
    this.current = { ...this.current, ...patch };
    this.didChange.fire(this.current);
  }

  dispose(): void {
    this.store.dispose();
    this.didChange.dispose();
  }
}
