import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electronFake } from '../../helpers/electron-fake';
import { FakeExecutor, FakeUploads, MemoryLog, until } from '../../helpers/shell-fakes';
import type { QuitQuestion, SleepNotice } from '../../../src-main/core/gaps/decisions';
import type { Occurrence } from '../../../src-main/core/gaps/upcoming';

vi.mock('electron', () => electronFake.module);

const { QuitCoordinator } = await import('../../../src-main/app/lifecycle');
const { PowerHandler } = await import('../../../src-main/app/power');
const { upcomingOccurrences } = await import('../../../src-main/core/gaps/upcoming');

/**
 * No silent gaps, the Electron edges: Quit asks first while an automation is due within 24 hours, and going to
 * sleep with one due within the hour raises a notice. Electron is faked; the clock is a manual one.
 */

let now = new Date('2030-01-01T08:15:00Z');
const clock = () => now;
const morning = {
  id: 'a1',
  name: 'Morning tip',
  status: 'active' as const,
  queue: 'local' as const,
  schedule: { cron: '0 9 * * *', timezone: 'UTC' },
};
let automations = [morning];
const upcoming = (): readonly Occurrence[] =>
  upcomingOccurrences(automations, now, { limit: 50, until: new Date(now.getTime() + 48 * 3600_000) });

function quitSetup(answer: (q: QuitQuestion) => Promise<boolean>) {
  electronFake.reset();
  const app = electronFake.app;
  const executor = new FakeExecutor();
  const asked: QuitQuestion[] = [];
  const quit = new QuitCoordinator({
    app: app as unknown as Electron.App,
    executor,
    uploads: new FakeUploads(),
    log: new MemoryLog(),
    graceMs: 50,
    settleMs: 10,
    reportMs: 50,
    upcoming,
    now: clock,
    askToQuit: (q) => {
      asked.push(q);
      return answer(q);
    },
  });
  quit.install();
  return { app, executor, quit, asked };
}

describe('quitting with automations due', () => {
  beforeEach(() => {
    now = new Date('2030-01-01T08:15:00Z');
    automations = [morning];
  });

  it('asks first, naming the next occurrence; "keep running" keeps it running', async () => {
    const t = quitSetup(async () => false);
    t.app.quit();
    await until(() => t.asked.length === 1, 'asked');
    expect(t.asked[0]?.next).toMatchObject({
      automationName: 'Morning tip',
      at: new Date('2030-01-01T09:00:00Z'),
    });
    expect(t.asked[0]?.detail).toContain('“Morning tip” is due in 45 min');
    await new Promise((r) => setTimeout(r, 30));
    expect(t.app.quitted).toBe(false);
    expect(t.app.calls.exit).toEqual([]);
    expect(t.executor.calls.stop).toHaveLength(0);
    expect(t.quit.isQuitting).toBe(false);
  });

  it('"quit" then quits through the usual drain, and is not asked twice', async () => {
    const t = quitSetup(async () => true);
    t.app.quit();
    await until(() => t.app.calls.exit.length > 0, 'exit');
    expect(t.asked).toHaveLength(1);
    expect(t.executor.calls.stop).toHaveLength(1);
    expect(t.app.calls.exit).toEqual([0]);
  });

  it('quits without asking when nothing is due within 24 hours', async () => {
    automations = [{ ...morning, schedule: { cron: '0 9 * * 1', timezone: 'UTC' } }]; // Mondays; this is a Tuesday
    const t = quitSetup(async () => false);
    t.app.quit();
    await until(() => t.app.calls.exit.length > 0, 'exit');
    expect(t.asked).toEqual([]);
  });

  it('an OS shutdown quits without asking', async () => {
    const t = quitSetup(async () => false);
    t.quit.quitNow();
    await until(() => t.app.calls.exit.length > 0, 'exit');
    expect(t.asked).toEqual([]);
  });
});

describe('going to sleep with an automation due', () => {
  beforeEach(() => {
    automations = [morning];
  });

  function sleepSetup() {
    electronFake.reset();
    const notices: SleepNotice[] = [];
    const executor = new FakeExecutor();
    const handler = new PowerHandler({
      monitor: electronFake.powerMonitor as unknown as Electron.PowerMonitor,
      executor,
      log: new MemoryLog(),
      onShutdown: () => {},
      upcoming,
      now: clock,
      notify: (n) => notices.push(n),
    });
    return { notices, executor, handler };
  }

  it('raises one notice when one is due within the hour, and still pauses the executor', () => {
    now = new Date('2030-01-01T08:20:00Z');
    const t = sleepSetup();
    electronFake.powerMonitor.emit('suspend');
    expect(t.notices.map((n) => n.title)).toEqual(['Due in 40 min: Morning tip']);
    expect(t.executor.isPaused()).toBe(true);
    t.handler.dispose();
  });

  it('says nothing when the next one is further than an hour away', () => {
    now = new Date('2030-01-01T07:59:00Z');
    const t = sleepSetup();
    electronFake.powerMonitor.emit('suspend');
    expect(t.notices).toEqual([]);
    t.handler.dispose();
  });
});

describe('a delivery not confirmed', () => {
  it('raises one notification that opens the post, counted as something to look at', async () => {
    electronFake.reset();
    const { NotificationService } = await import('../../../src-main/app/notifications');
    const { DeepLinkRouter } = await import('../../../src-main/app/deep-links');
    const { Emitter } = await import('../../../src-main/core/common/events');
    const log = new MemoryLog();
    const router = new DeepLinkRouter(log);
    const opened: unknown[] = [];
    router.attach({ reveal: () => {}, navigate: (r) => opened.push(r) });
    const service = new NotificationService({ router, reveal: () => {}, log });
    const failed = new Emitter<never>();
    const notConfirmed = new Emitter<{ id: string; post_id: string; platform: 'x'; scheduledAt: string }>();
    service.bind({
      runs: new FakeExecutor(),
      deliveries: { onDidFailDelivery: failed.event, onDidNotConfirm: notConfirmed.event },
    });
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    notConfirmed.fire({ id, post_id: 'p1', platform: 'x', scheduledAt: '2030-01-01T09:00:00Z' });
    const shown = electronFake.state.notifications;
    expect(shown).toHaveLength(1);
    expect(shown[0]?.options.title).toBe('X post not confirmed');
    expect(shown[0]?.options.body).toMatch(/^It was due .+, and the service has not said it was posted\.$/);
    expect(service.unseen()).toBe(1);
    shown[0]?.click();
    expect(opened).toEqual([{ kind: 'post', id }]);
  });
});
