import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeNotification, electronFake } from '../../helpers/electron-fake';
import { FakeExecutor, MemoryLog } from '../../helpers/shell-fakes';
import type { DeepLinkRoute } from '../../../src-main/app/deep-links';
import type { FailedDelivery } from '../../../src-main/app/capabilities';

vi.mock('electron', () => electronFake.module);

const { NotificationService, deliveryFailedNotice, runMissedNotice, noticeText } =
  await import('../../../src-main/app/notifications');
const { DeepLinkRouter } = await import('../../../src-main/app/deep-links');
const { Emitter } = await import('../../../src-main/core/common/events');

const DELIVERY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const RUN = '16fd2706-8baf-433b-82eb-8c7fada847da';

function setup(opts: { maxPerMinute?: number; now?: () => number; platform?: string } = {}) {
  electronFake.reset();
  const log = new MemoryLog();
  const router = new DeepLinkRouter(log);
  const navigated: DeepLinkRoute[] = [];
  let reveals = 0;
  router.attach({ reveal: () => (reveals += 1), navigate: (r) => navigated.push(r) });
  const service = new NotificationService({ router, reveal: () => (reveals += 1), log, ...opts });
  const shown = () => electronFake.state.notifications;
  return { log, router, navigated, service, shown, reveals: () => reveals };
}

describe('notifications', () => {
  beforeEach(() => electronFake.reset());

  it('a failed delivery opens its post on click', () => {
    const t = setup();
    t.service.deliveryFailed({ id: DELIVERY, post_id: 'p1', platform: 'tiktok', error: 'Token expired' });
    const [n] = t.shown();
    expect(n?.shown).toBe(true);
    expect(n?.options).toEqual({ title: 'TikTok delivery failed', body: 'Token expired' });
    n?.click();
    expect(t.navigated).toEqual([{ kind: 'post', id: DELIVERY }]);
    expect(t.reveals()).toBe(1);
  });

  it('a failed run opens its run on click', () => {
    const t = setup();
    t.service.runFailed({ runId: RUN, automationName: 'Daily digest', error: 'agent exited with code 2' });
    const [n] = t.shown();
    expect(n?.options.title).toBe('Run failed: Daily digest');
    n?.click();
    expect(t.navigated).toEqual([{ kind: 'run', id: RUN }]);
  });

  it('a run missed during sleep opens its run, or just the window when no run was recorded', () => {
    const t = setup();
    t.service.runMissed({
      automationId: 'a1',
      automationName: 'Morning post',
      scheduledFor: '2025-03-01T08:00:00Z',
      runId: RUN,
    });
    t.service.runMissed({
      automationId: 'a2',
      automationName: 'Evening',
      scheduledFor: '2025-03-01T20:00:00Z',
    });
    const [withRun, withoutRun] = t.shown();
    expect(withRun?.options.title).toBe('Run missed: Morning post');
    expect(withRun?.options.body).toMatch(/^Due .+\. The computer was asleep or Postdesk was not running\.$/);
    withRun?.click();
    withoutRun?.click();
    expect(t.navigated).toEqual([{ kind: 'run', id: RUN }]);
    expect(t.reveals()).toBe(2);
  });

  it.each([
    ['traversal', '../../x'],
    ['a scheme', 'javascript:alert(1)'],
    ['an url', 'https://evil.test/'],
    ['an overlong id', 'a'.repeat(65)],
  ])('rejects a bad id (%s) in a notification link and only opens the window', (_name, id) => {
    const t = setup();
    t.service.runFailed({ runId: id, automationName: 'x', error: 'y' });
    t.service.deliveryFailed({ id, post_id: 'p', platform: 'x', error: null });
    for (const n of t.shown()) n.click();
    expect(t.navigated).toEqual([]);
    expect(t.reveals()).toBe(2);
    expect(t.log.entries.filter((e) => e.message === 'deep link rejected')).toHaveLength(2);
  });

  it('counts unseen failures for the tray until the window is opened', () => {
    const t = setup();
    const counts: number[] = [];
    t.service.onDidChangeUnseen((n) => counts.push(n));
    t.service.runFailed({ runId: RUN, automationName: 'a', error: 'b' });
    t.service.deliveryFailed({ id: DELIVERY, post_id: 'p', platform: 'x', error: 'c' });
    expect(t.service.unseen()).toBe(2);
    t.service.markSeen();
    expect(t.service.unseen()).toBe(0);
    expect(counts).toEqual([1, 2, 0]);
  });

  it('holds back a burst beyond the per-minute limit but still counts it', () => {
    let now = 1_000_000;
    const t = setup({ maxPerMinute: 2, now: () => now });
    for (let i = 0; i < 5; i++) t.service.runFailed({ runId: `r${i}`, automationName: 'a', error: 'b' });
    expect(t.shown()).toHaveLength(2);
    expect(t.service.unseen()).toBe(5);
    now += 61_000;
    t.service.runFailed({ runId: 'r9', automationName: 'a', error: 'b' });
    expect(t.shown()).toHaveLength(3);
  });

  it('still counts failures where the OS has no notifications', () => {
    const t = setup();
    FakeNotification.supported = false;
    t.service.runFailed({ runId: RUN, automationName: 'a', error: 'b' });
    expect(t.shown()).toHaveLength(0);
    expect(t.service.unseen()).toBe(1);
  });

  it('listens to the executor’s and the deliveries’ failure events', () => {
    const t = setup();
    const executor = new FakeExecutor();
    const deliveries = new Emitter<FailedDelivery>();
    const binding = t.service.bind({ runs: executor, deliveries: { onDidFailDelivery: deliveries.event } });
    executor.emitFailedRun({ runId: RUN, automationName: 'a', error: 'b' });
    executor.emitMissedRun({ automationId: 'a', automationName: 'a', scheduledFor: '2025-01-01T00:00:00Z' });
    deliveries.fire({ id: DELIVERY, post_id: 'p', platform: 'linkedin', error: 'Rate limited' });
    expect(t.shown().map((n) => n.options.title)).toEqual([
      'Run failed: a',
      'Run missed: a',
      'LinkedIn delivery failed',
    ]);
    binding.dispose();
    executor.emitFailedRun({ runId: RUN, automationName: 'a', error: 'b' });
    expect(t.shown()).toHaveLength(3);
  });
});

describe('notice content', () => {
  it('keeps service text on one line and bounded: line breaks and controls shown escaped, cut between graphemes', () => {
    expect(noticeText(' line one\n\tline\u0007two ', 'x')).toBe('line one\\n\\tline\\x07two');
    expect(noticeText('e'.repeat(500), 'x')).toHaveLength(180);
    expect(noticeText(`${'e'.repeat(179)}👩‍👩‍👧 and more`, 'x')).toBe(`${'e'.repeat(179)}…`);
    expect(noticeText(`${'e'.repeat(178)}👩‍👩‍👧 and more`, 'x')).toBe(`${'e'.repeat(178)}👩‍👩‍👧…`);
    expect(noticeText(null, 'fallback')).toBe('fallback');
    expect(deliveryFailedNotice({ id: 'd1', post_id: 'p', platform: 'x', error: '' }).body).toBe(
      'The service gave no reason.',
    );
  });

  it('shows hostile service text inert: markup escaped where a Linux server renders it, reordering and escapes shown escaped', () => {
    const hostile =
      'Failed <b>bold</b> <a href="https://evil.example">click</a> <img src=x> & \u001b[31mred\u001b[0m invoice\u202Egpj.exe';
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const t = setup({ platform });
      t.service.deliveryFailed({ id: DELIVERY, post_id: 'p1', platform: 'x', error: hostile });
      const body = t.shown()[0]?.options.body ?? '';
      expect(body).not.toContain('\u001b');
      expect(body).not.toContain('\u202E');
      expect(body).toContain('invoice\\u202egpj.exe');
      expect(body).toContain('\\x1b[31mred\\x1b[0m');
      if (platform === 'linux') {
        expect(body).not.toMatch(/[<>]/);
        expect(body).toContain(
          '&lt;b&gt;bold&lt;/b&gt; &lt;a href="https://evil.example"&gt;click&lt;/a&gt;',
        );
        expect(body).toContain('&amp;');
      } else {
        expect(body).toContain('<b>bold</b>');
      }
    }
  });

  it('keeps an unparseable schedule as given, and says the executor’s reason', () => {
    expect(
      runMissedNotice({
        automationId: 'a',
        automationName: 'n',
        scheduledFor: 'soon',
        reason: 'the computer was asleep',
      }).body,
    ).toBe('Due soon. the computer was asleep');
    expect(runMissedNotice({ automationId: 'a', automationName: 'n', scheduledFor: null }).body).toBe(
      'The computer was asleep or Postdesk was not running.',
    );
  });
});
