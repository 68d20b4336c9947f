/**
 * Auto-update from releases (electron-updater; the feed is the packaging config's `publish`, written to
 * app-update.yml at build). It checks at start and every 4 hours and downloads in the background. A
 * downloaded update installs at the next quit (after the quit's drain), or when the user chooses
 * "restart now", and then not before the work in progress has ended: it never installs mid-run
 * (desktop/desktop#22731, actions/runner#1812), and never restarts the app on its own.
 */
import * as electronUpdater from 'electron-updater';
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import type { AppUpdaterEvents } from 'electron-updater/out/AppUpdater';
import type { ExecutorActivity, Logger, UploadQueueControl } from './capabilities';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../core/common/events';
import { errorText } from '../core/common/error-text';
import {
  RELEASE_NOTES_MAX,
  freshUpdateState,
  type Activity,
  type UpdateChannel,
  type UpdateState,
} from './update-state';

export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export type UpdateDecision =
  | Readonly<{ kind: 'none' }>
  /** Downloaded, not asked for: it installs when the app quits. */
  | Readonly<{ kind: 'at-quit' }>
  | Readonly<{ kind: 'defer'; waitingFor: Activity }>
  | Readonly<{ kind: 'install' }>;

export type UpdatePolicyInput = Readonly<{
  downloaded: boolean;
  restartRequested: boolean;
  activity: Activity;
}>;

/**
 * Pure: when may a downloaded update install? Only at a quit, or on "restart now" once no run and no
 * upload is in progress. Restarting by itself when idle would close the window under the user's hands.
 */
export class UpdatePolicy {
  decide(input: UpdatePolicyInput): UpdateDecision {
    if (!input.downloaded) return { kind: 'none' };
    if (!input.restartRequested) return { kind: 'at-quit' };
    const { activeRuns, activeUploads } = input.activity;
    // "Restart now" does not override this: it pauses the executor so the wait ends, then installs.
    if (activeRuns > 0 || activeUploads > 0)
      return { kind: 'defer', waitingFor: { activeRuns, activeUploads } };
    return { kind: 'install' };
  }
}

const HTML_TAG = /<\/?[a-z][a-z0-9]*(?:\s[^>]*)?\/?>/i;
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/**
 * Release notes as Markdown text for Settings. Ours are Markdown (the release workflow writes the tag's
 * message into the update files); a GitHub release without them gives its HTML, which is reduced to
 * text here: blocks become paragraphs, list items `- ` lines, every other tag goes. The result is
 * only ever rendered as Markdown with raw HTML skipped, so this is about legibility, not safety.
 */
export function releaseNotesText(notes: UpdateInfo['releaseNotes']): string | null {
  const raw =
    typeof notes === 'string'
      ? notes
      : Array.isArray(notes)
        ? notes.map((n) => `## ${n.version}\n\n${n.note ?? ''}`).join('\n\n')
        : '';
  let text = raw.replace(/\r\n?/g, '\n');
  if (HTML_TAG.test(text)) {
    text = text
      .replace(/<li[^>]*>/gi, '\n- ')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|ul|ol|h[1-6]|pre|blockquote)>/gi, '\n\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e] ?? '')
      .replace(/\n{3,}/g, '\n\n');
  }
  text = text.trim();
  if (!text) return null;
  return text.length > RELEASE_NOTES_MAX ? `${text.slice(0, RELEASE_NOTES_MAX - 1)}…` : text;
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
    this.current = freshUpdateState('idle', deps.channel, deps.currentVersion);
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

  /**
   * The app is quitting and its work has drained: a downloaded update installs now, and the app does
   * not start again (the user quit it). True when the installer took over the exit.
   */
  installOnQuit(): boolean {
    if (!this.downloaded || this.installing) return false;
    this.installing = true;
    this.set({ phase: 'installing', waitingFor: null });
    this.deps.log.info('installing update at quit', { version: this.current.availableVersion });
    this.deps.engine.quitAndInstall(true, false);
    return true;
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
      this.set({
        phase: 'up-to-date',
        availableVersion: null,
        releaseNotes: null,
        lastCheckedAt: this.nowIso(),
      }),
    );
    on('update-available', (info: UpdateInfo) =>
      this.set({
        phase: 'downloading',
        availableVersion: info.version,
        releaseNotes: releaseNotesText(info.releaseNotes),
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
      this.set({
        phase: 'downloaded',
        availableVersion: info.version,
        releaseNotes: releaseNotesText(info.releaseNotes),
        progress: null,
        error: null,
      });
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
    if (decision.kind === 'at-quit') {
      if (this.current.phase !== 'downloaded' || this.current.waitingFor !== null)
        this.set({ phase: 'downloaded', waitingFor: null });
    } else if (decision.kind === 'defer') {
      this.set({ phase: 'waiting-for-idle', waitingFor: decision.waitingFor });
    } else if (decision.kind === 'install') {
      void this.install();
    }
  }

  private async install(): Promise<void> {
    this.installing = true;
    this.set({ phase: 'installing', waitingFor: null });
    this.deps.log.info('installing update', { trigger: 'user', version: this.current.availableVersion });
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
