import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEvent, electronFake } from '../../helpers/electron-fake';
import { FakeExecutor, MemoryLog, until } from '../../helpers/shell-fakes';

vi.mock('electron', () => electronFake.module);

const { PowerHandler } = await import('../../../src-main/app/power');

function setup() {
  electronFake.reset();
  const monitor = electronFake.powerMonitor;
  const executor = new FakeExecutor();
  const log = new MemoryLog();
  let shutdowns = 0;
  const handler = new PowerHandler({
    monitor: monitor as unknown as Electron.PowerMonitor,
    executor,
    log,
    onShutdown: () => (shutdowns += 1),
  });
  return { monitor, executor, log, handler, shutdowns: () => shutdowns };
}

describe('sleep and wake', () => {
  beforeEach(() => electronFake.reset());

  it('pauses on suspend, then resumes and applies the missed-run policy on resume', async () => {
    const t = setup();
    t.monitor.emit('suspend');
    expect(t.executor.isPaused()).toBe(true);
    expect(t.executor.calls.runMissed).toEqual([]);

    t.monitor.emit('resume');
    expect(t.executor.isPaused()).toBe(false);
    await until(() => t.executor.calls.runMissed.length === 1, 'runMissed');
    expect(t.executor.calls.runMissed).toEqual(['sleep']);
    // pause happened before resume, and each exactly once
    expect(t.executor.calls).toMatchObject({ pause: 1, resume: 1 });
  });

  it('leaves a pause the user chose alone across sleep', () => {
    const t = setup();
    t.executor.pause();
    t.monitor.emit('suspend');
    t.monitor.emit('resume');
    expect(t.executor.isPaused()).toBe(true);
    expect(t.executor.calls).toMatchObject({ pause: 1, resume: 0, runMissed: [] });
  });

  it('handles a repeated suspend as one sleep', () => {
    const t = setup();
    t.monitor.emit('suspend');
    t.monitor.emit('suspend');
    t.monitor.emit('resume');
    t.monitor.emit('resume');
    expect(t.executor.calls).toMatchObject({ pause: 1, resume: 1, runMissed: ['sleep'] });
  });

  it('does nothing on lock-screen', () => {
    const t = setup();
    t.monitor.emit('lock-screen');
    t.monitor.emit('unlock-screen');
    expect(t.executor.calls).toMatchObject({ pause: 0, resume: 0, runMissed: [] });
  });

  it('logs a failing missed-run policy instead of crashing', async () => {
    const t = setup();
    t.executor.runMissed = () => Promise.reject(new Error('store closed'));
    t.monitor.emit('suspend');
    t.monitor.emit('resume');
    await until(() => t.log.entries.some((e) => e.level === 'error'), 'error log');
  });

  it('asks for time at shutdown and quits through the drain', () => {
    const t = setup();
    const e = new FakeEvent();
    t.monitor.emit('shutdown', e);
    expect(e.defaultPrevented).toBe(true);
    expect(t.shutdowns()).toBe(1);
  });

  it('stops listening when disposed', () => {
    const t = setup();
    t.handler.dispose();
    t.monitor.emit('suspend');
    expect(t.executor.isPaused()).toBe(false);
    expect(t.monitor.listenerCount('resume')).toBe(0);
  });
});
