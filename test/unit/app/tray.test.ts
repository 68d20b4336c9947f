import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electronFake, type FakeNativeImage } from '../../helpers/electron-fake';
import type { TrayInputs, TrayAction } from '../../../src-main/app/tray';

vi.mock('electron', () => electronFake.module);

const {
  TrayController,
  buildTrayMenuTemplate,
  loadTrayImages,
  menuLabel,
  trayState,
  trayTooltip,
  TOOLTIP_MAX,
} = await import('../../../src-main/app/tray');

const quiet: TrayInputs = {
  connection: 'connected',
  executor: 'idle',
  executorError: null,
  activeRuns: [],
  activeUploads: 0,
  unseenFailures: 0,
  update: { phase: 'up-to-date', version: null },
};
const runs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `run-${i}`, name: `Daily digest ${i}` }));

const labels = (inputs: TrayInputs) =>
  buildTrayMenuTemplate(inputs).map((i) => (i.type === 'separator' ? '---' : i.label));

describe('trayState', () => {
  it('is ok when connected, idle and nothing failed', () => {
    expect(trayState(quiet)).toBe('ok');
    expect(trayState({ ...quiet, executor: 'paused' })).toBe('ok');
  });

  it('is running while runs or uploads are in progress', () => {
    expect(trayState({ ...quiet, executor: 'running', activeRuns: runs(1) })).toBe('running');
    expect(trayState({ ...quiet, activeUploads: 2 })).toBe('running');
  });

  it('needs attention on a connection problem, an executor error or unseen failures, even while running', () => {
    expect(trayState({ ...quiet, connection: 'error' })).toBe('attention');
    expect(trayState({ ...quiet, connection: 'disconnected' })).toBe('attention');
    expect(trayState({ ...quiet, executorError: 'agent not found' })).toBe('attention');
    expect(trayState({ ...quiet, unseenFailures: 1, activeRuns: runs(2) })).toBe('attention');
  });
});

describe('buildTrayMenuTemplate', () => {
  it('offers open, pause, updates and quit when idle', () => {
    expect(labels(quiet)).toEqual([
      'Open Postdesk',
      '---',
      'Pause executor',
      '---',
      'Check for updates',
      '---',
      'Quit Postdesk',
    ]);
  });

  it('offers resume instead of pause when paused', () => {
    const l = labels({ ...quiet, executor: 'paused' });
    expect(l).toContain('Resume executor');
    expect(l).not.toContain('Pause executor');
  });

  it('lists the runs in progress as disabled items', () => {
    const items = buildTrayMenuTemplate({ ...quiet, executor: 'running', activeRuns: runs(2) });
    const runItems = items.filter((i) => i.type === 'normal' && i.label.startsWith('Daily digest'));
    expect(runItems).toEqual([
      { type: 'normal', label: 'Daily digest 0', enabled: false, toolTip: 'run-0' },
      { type: 'normal', label: 'Daily digest 1', enabled: false, toolTip: 'run-1' },
    ]);
    expect(labels({ ...quiet, activeRuns: runs(2) })).toContain('Runs in progress (2)');
  });

  it('summarises runs beyond eight', () => {
    const l = labels({ ...quiet, activeRuns: runs(11) });
    expect(l.filter((x) => x.startsWith('Daily digest'))).toHaveLength(8);
    expect(l).toContain('and 3 more');
  });

  it('turns "check for updates" into "restart to update" once one is downloaded', () => {
    const l = labels({ ...quiet, update: { phase: 'waiting-for-idle', version: '0.2.0' } });
    expect(l).toContain('Restart to update (0.2.0)');
    expect(l).not.toContain('Check for updates');
    const checking = buildTrayMenuTemplate({ ...quiet, update: { phase: 'checking', version: null } });
    expect(checking.find((i) => i.type === 'normal' && i.label.startsWith('Checking'))).toMatchObject({
      enabled: false,
    });
  });

  it('disables pause when the executor is stopped', () => {
    const pause = buildTrayMenuTemplate({ ...quiet, executor: 'stopped' }).find(
      (i) => i.type === 'normal' && i.label === 'Pause executor',
    );
    expect(pause).toMatchObject({ enabled: false });
  });
});

describe('labels and tooltips', () => {
  it('keeps run names short, single-line, and free of Windows mnemonics', () => {
    expect(menuLabel('Q&A\nweekly')).toBe('Q&&A weekly');
    expect(menuLabel('x'.repeat(100))).toHaveLength(48);
    expect(menuLabel('   ')).toBe('Untitled');
  });

  it('says what is going on, within the Windows limit', () => {
    expect(trayTooltip(quiet)).toBe('Postdesk · all quiet');
    expect(trayTooltip({ ...quiet, executor: 'paused' })).toBe('Postdesk · executor paused');
    expect(trayTooltip({ ...quiet, activeRuns: runs(2), activeUploads: 1 })).toBe(
      'Postdesk · 2 runs in progress · 1 upload in progress',
    );
    expect(trayTooltip({ ...quiet, connection: 'error', unseenFailures: 3 })).toBe(
      'Postdesk · connection problem · 3 new failures',
    );
    const long = trayTooltip({
      ...quiet,
      connection: 'disconnected',
      executor: 'paused',
      executorError: 'x',
      unseenFailures: 12345,
      activeRuns: runs(99),
      activeUploads: 99999,
    });
    expect(long.length).toBeLessThanOrEqual(TOOLTIP_MAX);
  });
});

describe('TrayController', () => {
  beforeEach(() => electronFake.reset());

  const images = loadTrayImages('/res/tray');

  it('shows the state icon, tooltip and menu, and follows changes', () => {
    let inputs: TrayInputs = quiet;
    const clicked: TrayAction[] = [];
    const act = (a: TrayAction) => () => void clicked.push(a);
    const actions = {
      open: act('open'),
      pause: act('pause'),
      resume: act('resume'),
      'check-updates': act('check-updates'),
      'restart-to-update': act('restart-to-update'),
      quit: act('quit'),
    };
    const controller = new TrayController({ images, actions, inputs: () => inputs });
    const tray = electronFake.state.trays[0];
    expect(tray).toBeDefined();
    const icon = () => (tray?.image as FakeNativeImage).path;

    expect(icon()).toBe('/res/tray/tray-ok.png');
    expect(tray?.toolTip).toBe('Postdesk · all quiet');
    electronFake.lastMenu().click('Pause executor');
    expect(clicked).toEqual(['pause']);

    inputs = { ...quiet, executor: 'paused' };
    controller.refresh();
    electronFake.lastMenu().click('Resume executor');
    expect(clicked).toEqual(['pause', 'resume']);

    inputs = { ...quiet, executor: 'running', activeRuns: [{ id: 'r1', name: 'Morning post' }] };
    controller.refresh();
    expect(icon()).toBe('/res/tray/tray-running.png');
    expect(electronFake.lastMenu().labels()).toContain('Morning post');
    expect(() => electronFake.lastMenu().click('Morning post')).toThrow(/disabled/);

    inputs = { ...inputs, unseenFailures: 1 };
    controller.refresh();
    expect(icon()).toBe('/res/tray/tray-attention.png');
    expect(controller.state).toBe('attention');

    electronFake.lastMenu().click('Check for updates');
    electronFake.lastMenu().click('Open Postdesk');
    electronFake.lastMenu().click('Quit Postdesk');
    tray?.emit('click');
    expect(clicked).toEqual(['pause', 'resume', 'check-updates', 'open', 'quit', 'open']);

    controller.dispose();
    expect(tray?.destroyed).toBe(true);
    controller.refresh();
  });
});
