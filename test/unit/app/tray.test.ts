import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electronFake, type FakeNativeImage } from '../../helpers/electron-fake';
import type { TrayInputs, TrayAction } from '../../../src-main/app/tray';

vi.mock('electron', () => electronFake.module);

const {
  TrayController,
  buildTrayMenuTemplate,
  loadTrayImages,
  menuLabel,
  trayImageFile,
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
  it('offers open, pause, updates, the logs folder and quit when idle', () => {
    expect(labels(quiet)).toEqual([
      'Open Postdesk',
      '---',
      'Pause executor',
      '---',
      'Check for updates',
      '---',
      'Open logs folder',
      'Quit Postdesk',
    ]);
  });

  it('says so while the executor is still registering with the service', () => {
    expect(trayTooltip({ ...quiet, executor: 'registering' })).toBe('Postdesk · executor registering');
    expect(labels({ ...quiet, executor: 'registering' })).toContain('Executor registering with the service…');
    expect(labels(quiet)).not.toContain('Executor registering with the service…');
    expect(trayState({ ...quiet, executor: 'registering' })).toBe('ok');
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
    expect(menuLabel('Q&A\nweekly')).toBe('Q&&A\\nweekly');
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

  const images = loadTrayImages('/res/tray', 'linux');

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
      'open-logs': act('open-logs'),
      'open-inbox': act('open-inbox'),
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
    electronFake.lastMenu().click('Open logs folder');
    electronFake.lastMenu().click('Quit Postdesk');
    tray?.emit('click');
    expect(clicked).toEqual(['pause', 'resume', 'check-updates', 'open', 'open-logs', 'quit', 'open']);

    // What the launch tests' hook reports: read back from the Menu handed to the tray.
    expect(controller.describe()).toMatchObject({ alive: true, state: 'attention' });
    expect(controller.describe().items).toContainEqual({
      type: 'normal',
      label: 'Quit Postdesk',
      enabled: true,
    });

    controller.dispose();
    expect(tray?.destroyed).toBe(true);
    expect(controller.describe().alive).toBe(false);
    controller.refresh();
  });
});

/** RGBA rows of a PNG as make-icons.ts writes it (8-bit RGBA, filter 0 on every row). */
function readPng(file: string): { size: number; rgba: Buffer } {
  const b = readFileSync(file);
  let at = 8;
  let size = 0;
  const idat: Buffer[] = [];
  while (at < b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString('ascii', at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') size = data.readUInt32BE(0);
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    expect(raw[y * (size * 4 + 1)]).toBe(0);
    raw.copy(rgba, y * size * 4, y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1));
  }
  return { size, rgba };
}

describe('tray images per platform', () => {
  const resources = join(import.meta.dirname, '../../../resources/tray');
  const states = ['ok', 'running', 'attention'] as const;

  it('uses template images on macOS, so the glyph follows a light or dark menu bar', () => {
    const mac = loadTrayImages('/res/tray', 'darwin');
    for (const s of states) {
      const image = mac[s] as unknown as FakeNativeImage;
      expect(image.path).toBe(`/res/tray/tray-${s}Template.png`);
      expect(image.isTemplateImage()).toBe(true);
    }
    for (const platform of ['linux', 'win32'] as const) {
      const other = loadTrayImages('/res/tray', platform);
      for (const s of states) {
        const image = other[s] as unknown as FakeNativeImage;
        expect(image.path).toBe(`/res/tray/tray-${s}.png`);
        expect(image.isTemplateImage()).toBe(false);
      }
    }
  });

  it('ships every file it names, at 1x and 2x', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      for (const s of states) {
        const file = trayImageFile(s, platform);
        expect(existsSync(join(resources, file)), file).toBe(true);
        expect(existsSync(join(resources, file.replace(/\.png$/, '@2x.png'))), file).toBe(true);
      }
    }
  });

  it('draws the templates in black and alpha only, a different shape per state', () => {
    const drawn = new Map<string, string>();
    for (const s of states) {
      for (const [file, size] of [
        [`tray-${s}Template.png`, 16],
        [`tray-${s}Template@2x.png`, 32],
      ] as const) {
        const png = readPng(join(resources, file));
        expect(png.size, file).toBe(size);
        let covered = 0;
        for (let i = 0; i < png.rgba.length; i += 4) {
          if (png.rgba[i + 3] === 0) continue;
          covered += 1;
          expect([png.rgba[i], png.rgba[i + 1], png.rgba[i + 2]], `${file} pixel ${i / 4}`).toEqual([
            0, 0, 0,
          ]);
        }
        expect(covered, file).toBeGreaterThan(size * size * 0.15);
        if (size === 32) drawn.set(s, png.rgba.toString('base64'));
      }
    }
    expect(new Set(drawn.values()).size).toBe(3);
    // The coloured images keep their colour: the template is a drawing of its own, not a recolouring.
    const colour = readPng(join(resources, 'tray-running@2x.png')).rgba;
    let tinted = false;
    for (let i = 0; i < colour.length; i += 4) {
      if (colour[i + 3] !== 0 && (colour[i] !== colour[i + 1] || colour[i + 1] !== colour[i + 2]))
        tinted = true;
    }
    expect(tinted).toBe(true);
  });
});
