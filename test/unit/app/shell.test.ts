import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, electronFake } from '../../helpers/electron-fake';
import {
  FakeConnection,
  FakeExecutor,
  FakeSettings,
  FakeUploads,
  MemoryLog,
  until,
} from '../../helpers/shell-fakes';
import type { DeepLinkRoute } from '../../../src-main/app/deep-links';
import type { ShellServices } from '../../../src-main/app/shell';
import type { DraftsWaiting } from '../../../src-main/app/capabilities';

vi.mock('electron', () => electronFake.module);

const { startShell } = await import('../../../src-main/app/shell');
const { Emitter } = await import('../../../src-main/core/common/events');
const { LinuxAutostart, LoginItemService } = await import('../../../src-main/app/login-item');

const RUN = '16fd2706-8baf-433b-82eb-8c7fada847da';

async function launch(
  argv: string[] = ['/opt/Postdesk/postdesk'],
  beforeServices?: () => void,
  extra: Partial<ShellServices> = {},
) {
  const app = electronFake.app;
  const executor = new FakeExecutor();
  const uploads = new FakeUploads();
  const connection = new FakeConnection();
  const settings = new FakeSettings();
  const log = new MemoryLog();
  const navigated: Array<{ win: unknown; route: DeepLinkRoute }> = [];
  const shell = await startShell({
    app: app as unknown as Electron.App,
    powerMonitor: electronFake.powerMonitor as unknown as Electron.PowerMonitor,
    argv,
    platform: 'linux',
    protocol: { defaultApp: false, execPath: '/opt/Postdesk/postdesk', entryScript: undefined },
    resourcesDir: '/res',
    log,
    createWindow: () => new FakeBrowserWindow() as unknown as Electron.BrowserWindow,
    navigate: (win, route) => navigated.push({ win, route }),
    graceMs: 2_000,
    services: async () => {
      beforeServices?.();
      return {
        executor,
        uploads,
        connection,
        settings,
        loginItem: new LoginItemService({
          app: app as unknown as Electron.App,
          platform: 'linux',
          isPackaged: false,
          linux: new LinuxAutostart({
            configHome: '/nonexistent',
            id: 'postdesk',
            name: 'Postdesk',
            executable: '/x',
          }),
          log,
        }),
        updater: null,
        ...extra,
      };
    },
  });
  return { app, executor, uploads, connection, settings, log, navigated, shell };
}

describe('the desktop shell', () => {
  beforeEach(() => electronFake.reset());

  it('a second launch quits at once when another instance holds the lock', async () => {
    electronFake.app.lockAvailable = false;
    const t = await launch();
    expect(t.shell).toBeNull();
    expect(t.app.calls.quit).toBe(1);
    expect(electronFake.state.trays).toHaveLength(0);
    expect(electronFake.state.windows).toHaveLength(0);
    expect(t.app.listenerCount('second-instance')).toBe(0);
  });

  it('the first instance takes the lock, shows its window and a tray', async () => {
    const t = await launch();
    expect(t.shell).not.toBeNull();
    expect(t.app.lockHeld).toBe(true);
    expect(electronFake.state.windows).toHaveLength(1);
    expect(electronFake.state.windows[0]?.visible).toBe(true);
    expect(electronFake.state.trays).toHaveLength(1);
    expect(t.app.protocolClients.map((p) => p.scheme)).toEqual(['postdesk']);
  });

  it('a second instance focuses the first and routes the deep link it was given', async () => {
    const t = await launch();
    const win = electronFake.state.windows[0] as FakeBrowserWindow;
    win.hide();
    win.minimized = true;

    t.app.emit(
      'second-instance',
      {},
      ['/opt/Postdesk/postdesk', '--flag', `postdesk://run/${RUN}`],
      '/home/me',
    );
    expect(win.visible).toBe(true);
    expect(win.focused).toBe(true);
    expect(win.calls.restore).toBe(1);
    expect(t.navigated).toEqual([{ win, route: { kind: 'run', id: RUN } }]);
    expect(electronFake.state.windows).toHaveLength(1);
  });

  it('a second instance with a bad link still focuses, and navigates nowhere', async () => {
    const t = await launch();
    t.app.emit('second-instance', {}, ['/x', 'postdesk://post/../../etc/passwd'], '/');
    expect(t.navigated).toEqual([]);
    expect(electronFake.state.windows[0]?.focused).toBe(true);
    expect(t.log.entries.some((e) => e.message === 'deep link rejected')).toBe(true);
  });

  it('a second launch during start-up waits for the core, then shows the window and its link', async () => {
    const t = await launch(['/x', '--hidden'], () => {
      electronFake.app.emit('second-instance', {}, ['/x', `postdesk://run/${RUN}`], '/');
    });
    expect(electronFake.state.windows).toHaveLength(1);
    expect(electronFake.state.windows[0]?.visible).toBe(true);
    expect(t.navigated.map((n) => n.route)).toEqual([{ kind: 'run', id: RUN }]);
  });

  it('the Dock icon (macOS activate) brings the hidden window back', async () => {
    await launch();
    const win = electronFake.state.windows[0] as FakeBrowserWindow;
    win.close();
    expect(win.visible).toBe(false);
    electronFake.app.emit('activate');
    expect(win.visible).toBe(true);
  });

  it('started at login it stays in the tray; a link on its own command line opens the window', async () => {
    const hidden = await launch(['/x', '--hidden']);
    expect(hidden.shell).not.toBeNull();
    expect(electronFake.state.windows).toHaveLength(0);

    electronFake.reset();
    const linked = await launch(['/x', `postdesk://post/${RUN}`]);
    expect(linked.navigated.map((n) => n.route)).toEqual([{ kind: 'post', id: RUN }]);
    expect(electronFake.state.windows).toHaveLength(1);
  });

  it('closing the window keeps the app in the tray; Quit in the tray drains and exits', async () => {
    const t = await launch();
    const win = electronFake.state.windows[0] as FakeBrowserWindow;
    win.close();
    expect(win.destroyed).toBe(false);
    expect(t.app.calls.exit).toEqual([]);

    t.executor.startRun('r1', 'Morning post');
    electronFake.lastMenu().click('Quit Postdesk');
    expect(t.executor.calls.stop).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.app.calls.exit).toEqual([]);
    t.executor.finishRun('r1');
    await until(() => t.app.calls.exit.length === 1, 'exit');
    expect(electronFake.state.trays[0]?.destroyed).toBe(true);
  });

  it('the tray follows the executor, the connection and failures; opening the window clears attention', async () => {
    const t = await launch();
    const tray = electronFake.state.trays[0];
    const icon = () => (tray?.image as { path: string }).path;
    expect(icon()).toBe('/res/tray/tray-ok.png');

    t.executor.startRun('r1', 'Morning post');
    expect(icon()).toBe('/res/tray/tray-running.png');
    expect(electronFake.lastMenu().labels()).toContain('Morning post');

    electronFake.lastMenu().click('Pause executor');
    expect(t.executor.isPaused()).toBe(true);
    electronFake.lastMenu().click('Resume executor');
    expect(t.executor.isPaused()).toBe(false);

    t.executor.emitFailedRun({ runId: RUN, automationName: 'Morning post', error: 'agent crashed' });
    expect(icon()).toBe('/res/tray/tray-attention.png');
    electronFake.state.notifications[0]?.click();
    expect(t.navigated.map((n) => n.route)).toEqual([{ kind: 'run', id: RUN }]);
    expect(icon()).toBe('/res/tray/tray-running.png');

    t.connection.set('error');
    expect(icon()).toBe('/res/tray/tray-attention.png');
  });

  it('sleep pauses the executor and wake resumes it with the missed-run policy', async () => {
    const t = await launch();
    electronFake.powerMonitor.emit('suspend');
    expect(t.executor.isPaused()).toBe(true);
    electronFake.powerMonitor.emit('resume');
    expect(t.executor.isPaused()).toBe(false);
    await until(() => t.executor.calls.runMissed.length === 1, 'runMissed');
  });

  it('counts the drafts waiting in the tray, and tells of each run with drafts once, opening the inbox filtered to it', async () => {
    const runs = new Emitter<DraftsWaiting>();
    const counts = new Emitter<number>();
    let count = 0;
    const t = await launch(['/opt/Postdesk/postdesk'], undefined, {
      inbox: { onDidDraftRun: runs.event, onDidChangeCount: counts.event, count: () => count },
    });
    const tray = electronFake.state.trays[0];
    expect(tray?.toolTip).toBe('Postdesk · all quiet');

    count = 3;
    counts.fire(3);
    expect(tray?.toolTip).toBe('Postdesk · 3 drafts to review');
    // Drafts wait for a person; they are not a failure.
    expect(t.shell?.tray.state).toBe('ok');
    electronFake.lastMenu().click('Review drafts (3)');
    expect(t.navigated.map((n) => n.route)).toEqual([{ kind: 'inbox', id: 'all' }]);

    runs.fire({ runId: RUN, automationName: 'Daily clip', drafts: 3 });
    const shown = electronFake.state.notifications;
    expect(shown).toHaveLength(1);
    expect(shown[0]?.options).toEqual({
      title: 'Drafts to review: Daily clip',
      body: 'Its run made 3 drafts. Nothing is published until you approve them.',
    });
    expect(t.shell?.notifications.unseen()).toBe(0);
    shown[0]?.click();
    expect(t.navigated.map((n) => n.route)).toEqual([
      { kind: 'inbox', id: 'all' },
      { kind: 'inbox', id: RUN },
    ]);
  });
});
