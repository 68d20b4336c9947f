/**
 * Stand-ins for the core services the shell drives (executor, upload queue, connection, settings), shaped
 * by src-main/app/capabilities.ts. They keep a record of the calls made, and behave like the real
 * thing where the shell depends on it: `stop` resolves only once the active runs have ended or the grace
 * period has elapsed, and it does not fail leftovers itself (the shell's backstop must).
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

type Work = { item: ActiveRun; done: () => void; ended: Promise<void> };

function work(item: ActiveRun): Work {
  let done = (): void => {};
  const ended = new Promise<void>((resolve) => (done = resolve));
  return { item, done, ended };
}

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

  /** A run starts; it ends when `finishRun` is called. */
  startRun(id: string, name: string): void {
    if (this.stopped || this.paused) throw new Error('a stopped or paused executor starts no run');
    this.runs.set(id, work({ id, name }));
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
    if (this.stopped) return 'stopped';
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
    await Promise.race([Promise.all([...this.runs.values()].map((w) => w.ended)), wait(opts.graceMs)]);
  }
  async failRun(id: string, reason: string): Promise<void> {
    this.calls.failRun.push({ id, reason });
    this.finishRun(id);
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
