/**
 * Stand-ins for the core services the shell drives (executor, upload queue, connection, settings), shaped
 * by src-main/app/capabilities.ts. They keep a record of the calls made, and behave like the real
 * thing where the shell depends on it. FakeExecutor passes the same suite as the real ExecutorHost over a
 * real executor (test/helpers/executor-control-contract.ts): `stop` resolves once the active runs have
 * ended, or at the grace period by cancelling them (each fails with the stop's reason); `failRun` ends a
 * run and reports it failed. A run started with `survivesCancel` is one the executor cannot end (an agent
 * that outlives the kill): `stop` then hangs on it, as the real one does, and only the shell's backstop
 * (`failRun`) ends it.
 */
import type {
  ActiveRun,
  ActiveUpload,
  ConnectionSource,
  ConnectionState,
  ExecutorControl,
  ExecutorState,
  FailedRun,
  MissedRun,
  ShellSettings,
  ShellSettingsSource,
  UploadQueueControl,
} from '../../src-main/app/capabilities';
import { Emitter } from '../../src-main/core/common/events';

export { MemoryLog, type LogEntry } from './memory-log';

type Work = { item: ActiveRun; done: () => void; ended: Promise<void>; survivesCancel: boolean };

function work(item: ActiveRun, survivesCancel = false): Work {
  let done = (): void => {};
  const ended = new Promise<void>((resolve) => (done = resolve));
  return { item, done, ended, survivesCancel };
}

const graceText = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class FakeExecutor implements ExecutorControl {
  private paused = false;
  private stopped = false;
  error: string | null = null;
  private readonly runs = new Map<string, Work>();
  readonly calls = {
    pause: 0,
    resume: 0,
    runMissed: [] as string[],
    stop: [] as Array<{ graceMs: number; reason: string }>,
    failRun: [] as Array<{ id: string; reason: string }>,
  };
  private readonly changed = new Emitter<void>();
  private readonly failed = new Emitter<FailedRun>();
  private readonly missed = new Emitter<MissedRun>();
  readonly onDidChangeState = this.changed.event;
  readonly onDidFailRun = this.failed.event;
  readonly onDidMissRun = this.missed.event;

  /** A run starts; it ends when `finishRun` is called (or it is cancelled, unless `survivesCancel`). */
  startRun(id: string, name: string, o: Readonly<{ survivesCancel?: boolean }> = {}): void {
    if (this.stopped || this.paused) throw new Error('a stopped or paused executor starts no run');
    this.runs.set(id, work({ id, name }, o.survivesCancel));
    this.changed.fire();
  }

  finishRun(id: string): void {
    const w = this.runs.get(id);
    if (!w) return;
    this.runs.delete(id);
    w.done();
    this.changed.fire();
  }

  emitFailedRun(r: FailedRun): void {
    this.failed.fire(r);
  }

  emitMissedRun(m: MissedRun): void {
    this.missed.fire(m);
  }

  pause(): void {
    this.calls.pause += 1;
    this.paused = true;
    this.changed.fire();
  }
  resume(): void {
    this.calls.resume += 1;
    this.paused = false;
    this.changed.fire();
  }
  isPaused(): boolean {
    return this.paused;
  }
  async runMissed(reason: 'sleep'): Promise<void> {
    this.calls.runMissed.push(reason);
  }
  state(): ExecutorState {
    // Like the executor: runs still finishing during a stop show as running.
    if (this.stopped) return this.runs.size > 0 ? 'running' : 'stopped';
    if (this.paused) return 'paused';
    return this.runs.size > 0 ? 'running' : 'idle';
  }
  activeRuns(): readonly ActiveRun[] {
    return [...this.runs.values()].map((w) => w.item);
  }
  lastError(): string | null {
    return this.error;
  }
  async stop(opts: Readonly<{ graceMs: number; reason: string }>): Promise<void> {
    this.calls.stop.push({ ...opts });
    this.stopped = true;
    this.changed.fire();
    const ended = Promise.all([...this.runs.values()].map((w) => w.ended));
    const expired = await Promise.race([ended.then(() => false), wait(opts.graceMs).then(() => true)]);
    if (!expired) return;
    const why = `${opts.reason} and the run did not finish within the ${graceText(opts.graceMs)} grace period`;
    for (const w of [...this.runs.values()]) if (!w.survivesCancel) this.fail(w, why);
    await ended;
  }
  async failRun(id: string, reason: string): Promise<void> {
    this.calls.failRun.push({ id, reason });
    const w = this.runs.get(id);
    if (w) this.fail(w, reason);
  }

  private fail(w: Work, error: string): void {
    this.finishRun(w.item.id);
    this.failed.fire({ runId: w.item.id, automationName: w.item.name, error });
  }
}

export class FakeUploads implements UploadQueueControl {
  private readonly uploads = new Map<string, Work>();
  readonly calls = { drain: [] as number[], failUpload: [] as Array<{ id: string; reason: string }> };
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  start(id: string, name: string): void {
    this.uploads.set(id, work({ id, name }));
    this.changed.fire();
  }
  finish(id: string): void {
    const w = this.uploads.get(id);
    if (!w) return;
    this.uploads.delete(id);
    w.done();
    this.changed.fire();
  }
  activeUploads(): readonly ActiveUpload[] {
    return [...this.uploads.values()].map((w) => w.item);
  }
  async drain(opts: Readonly<{ graceMs: number }>): Promise<void> {
    this.calls.drain.push(opts.graceMs);
    await Promise.race([Promise.all([...this.uploads.values()].map((w) => w.ended)), wait(opts.graceMs)]);
  }
  async failUpload(id: string, reason: string): Promise<void> {
    this.calls.failUpload.push({ id, reason });
    this.finish(id);
  }
}

export class FakeConnection implements ConnectionSource {
  private state: ConnectionState = 'connected';
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  current(): ConnectionState {
    return this.state;
  }
  set(state: ConnectionState): void {
    this.state = state;
    this.changed.fire();
  }
}

export class FakeSettings implements ShellSettingsSource {
  private value: ShellSettings = { startAtLogin: false, updateChannel: 'stable' };
  private readonly changed = new Emitter<ShellSettings>();
  readonly onDidChange = this.changed.event;
  get(): ShellSettings {
    return this.value;
  }
  update(patch: Partial<ShellSettings>): void {
    this.value = { ...this.value, ...patch };
    this.changed.fire(this.value);
  }
}

/** Resolves when `predicate` holds, polling briefly; fails the test with `what` otherwise. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(5);
  }
}
