import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, electronFake } from '../../helpers/electron-fake';
import { FakeExecutor, FakeUploads, MemoryLog, until } from '../../helpers/shell-fakes';
import type { DrainReport } from '../../../src-main/app/lifecycle';

vi.mock('electron', () => electronFake.module);

const { QuitCoordinator, keepInTrayOnClose } = await import('../../../src-main/app/lifecycle');

function setup(
  graceMs = 60,
  beforeExit?: () => Promise<void>,
  takeOverExit?: () => boolean,
  takeoverMs?: number,
) {
  electronFake.reset();
  const app = electronFake.app;
  const executor = new FakeExecutor();
  const uploads = new FakeUploads();
  const log = new MemoryLog();
  const drained: DrainReport[] = [];
  const quit = new QuitCoordinator({
    app: app as unknown as Electron.App,
    executor,
    uploads,
    log,
    graceMs,
    settleMs: 20,
    reportMs: 200,
    onDrained: (r) => drained.push(r),
    beforeExit,
    takeOverExit,
    takeoverMs,
  });
  const installed = quit.install();
  return { app, executor, uploads, log, quit, drained, installed };
}

describe('the quit sequence', () => {
  beforeEach(() => electronFake.reset());

  it('exits at once when nothing is in progress', async () => {
    const t = setup();
    t.app.quit();
    await until(() => t.app.calls.exit.length > 0, 'exit');
    expect(t.app.calls.exit).toEqual([0]);
    expect(t.executor.calls.stop).toHaveLength(1);
    expect(t.uploads.calls.drain).toEqual([60]);
    expect(t.drained[0]).toMatchObject({ failedRuns: [], failedUploads: [] });
  });

  it('closes the core after the drain and before the exit', async () => {
    const order: string[] = [];
    const t = setup(5_000, async () => {
      order.push(`close (runs left: ${t.executor.activeRuns().length}, exits: ${t.app.calls.exit.length})`);
    });
    t.executor.startRun('r1', 'Morning post');
    t.app.quit();
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    t.executor.finishRun('r1');
    await until(() => t.app.calls.exit.length > 0, 'exit');
    expect(order).toEqual(['close (runs left: 0, exits: 0)']);
  });

  it('holds the quit until the run in progress has finished', async () => {
    const t = setup(5_000);
    t.executor.startRun('r1', 'Morning post');
    t.app.quit();
    expect(t.app.quitted).toBe(false);
    expect(t.quit.isQuitting).toBe(true);

    await new Promise((r) => setTimeout(r, 50));
    expect(t.app.calls.exit).toEqual([]);

    t.executor.finishRun('r1');
    await until(() => t.app.calls.exit.length > 0, 'exit after the run');
    expect(t.app.calls.exit).toEqual([0]);
    expect(t.executor.calls.failRun).toEqual([]);
    expect(t.executor.calls.stop[0]?.graceMs).toBe(5_000);
  });

  it('waits for uploads in progress too', async () => {
    const t = setup(5_000);
    t.uploads.start('u1', 'clip.mp4');
    t.app.quit();
    await new Promise((r) => setTimeout(r, 30));
    expect(t.app.calls.exit).toEqual([]);
    t.uploads.finish('u1');
    await until(() => t.app.calls.exit.length > 0, 'exit after the upload');
    expect(t.uploads.calls.failUpload).toEqual([]);
  });

  it('a second quit during the sequence neither runs it again nor exits twice', async () => {
    const t = setup(5_000);
    t.executor.startRun('r1', 'Morning post');
    t.app.quit();
    t.app.quit();
    t.app.quit();
    expect(t.app.calls.quit).toBe(3);
    expect(t.app.quitted).toBe(false);
    t.executor.finishRun('r1');
    await until(() => t.app.calls.exit.length > 0, 'exit');
    await new Promise((r) => setTimeout(r, 30));
    expect(t.executor.calls.stop).toHaveLength(1);
    expect(t.uploads.calls.drain).toHaveLength(1);
    expect(t.app.calls.exit).toEqual([0]);
    expect(t.drained).toHaveLength(1);
  });

  it('fails a run still active past the grace period with its reason, then exits', async () => {
    const t = setup(40);
    t.executor.startRun('r1', 'Never ends', { survivesCancel: true });
    t.executor.startRun('r2', 'Quick one');
    t.uploads.start('u1', 'huge.mp4');
    t.app.quit();
    t.executor.finishRun('r2');

    await until(() => t.app.calls.exit.length > 0, 'exit after the grace');
    expect(t.executor.calls.failRun).toHaveLength(1);
    const failed = t.executor.calls.failRun[0];
    expect(failed?.id).toBe('r1');
    expect(failed?.reason).toBe('Postdesk quit and the work did not finish within the 0.04 s grace period');
    expect(t.executor.calls.stop[0]?.reason).toBe('Postdesk quit');
    expect(t.uploads.calls.failUpload).toEqual([{ id: 'u1', reason: failed?.reason }]);
    expect(t.drained[0]?.failedRuns.map((r) => r.id)).toEqual(['r1']);
    expect(t.log.entries.some((e) => e.level === 'warn' && /grace/.test(e.message))).toBe(true);
  });

  it('exits even when the executor hangs in stop', async () => {
    const t = setup(30);
    t.executor.stop = () => new Promise<void>(() => {});
    t.executor.startRun('r1', 'Stuck');
    t.app.quit();
    await until(() => t.app.calls.exit.length > 0, 'exit despite a hung stop');
    expect(t.executor.calls.failRun.map((f) => f.id)).toEqual(['r1']);
  });

  it('after an update drain, lets the updater’s own quit through', async () => {
    const t = setup();
    const report = await t.quit.drain('update');
    expect(report.reason).toMatch(/update/);
    t.app.quit();
    expect(t.app.quitted).toBe(true);
    expect(t.app.calls.exit).toEqual([]);
    expect(t.executor.calls.stop).toHaveLength(1);
  });

  it('hands the exit to an update that installs at quit, after the drain and the core closing', async () => {
    const order: string[] = [];
    let t: ReturnType<typeof setup> | null = null;
    t = setup(
      5_000,
      async () => void order.push('core closed'),
      () => {
        order.push(`installer takes over (runs left: ${t?.executor.activeRuns().length})`);
        // As electron-updater's quitAndInstall does once the installer is under way.
        setImmediate(() => t?.app.quit());
        return true;
      },
    );
    t.executor.startRun('r1', 'Morning post');
    t.app.quit();
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    t.executor.finishRun('r1');
    await until(() => t.app.quitted, 'the installer’s quit');
    expect(order).toEqual(['core closed', 'installer takes over (runs left: 0)']);
    // The installer's own quit went through; nothing forced an exit.
    await new Promise((r) => setTimeout(r, 50));
    expect(t.app.calls.exit).toEqual([]);
  });

  it('exits anyway when the update that took over the exit does not quit the app', async () => {
    const t = setup(60, undefined, () => true, 30);
    t.app.quit();
    await until(() => t.app.calls.exit.length > 0, 'the fallback exit');
    expect(t.app.calls.exit).toEqual([0]);
    expect(t.app.quitted).toBe(false);
  });

  it('keeps the app alive when the last window closes', () => {
    const t = setup();
    expect(t.app.listenerCount('window-all-closed')).toBe(1);
    t.installed.dispose();
    expect(t.app.listenerCount('window-all-closed')).toBe(0);
    expect(t.app.listenerCount('before-quit')).toBe(0);
  });
});

describe('closing the window', () => {
  it('hides it to the tray unless quitting', () => {
    const win = new FakeBrowserWindow();
    win.show();
    let quitting = false;
    keepInTrayOnClose(win as unknown as Electron.BrowserWindow, () => quitting);
    win.close();
    expect(win.destroyed).toBe(false);
    expect(win.visible).toBe(false);
    quitting = true;
    win.close();
    expect(win.destroyed).toBe(true);
  });
});
