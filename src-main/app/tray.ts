/**
 * The tray: an icon that says ok, running or attention, a tooltip, and a menu (open, pause or resume,
 * the runs in progress, updates, the logs folder, quit). The state and the menu are pure functions of the inputs so
 * tests assert on them; the controller only feeds them to Electron.
 */
import { join } from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { ActiveRun, ConnectionState, ExecutorState } from './capabilities';
import type { Disposable } from '../core/common/events';
import type { UpdatePhase } from './update-state';
import { safeLine } from '../../src-shared/safe-text';

export const TRAY_STATES = ['ok', 'running', 'attention'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

export type TrayInputs = Readonly<{
  connection: ConnectionState;
  executor: ExecutorState;
  executorError: string | null;
  activeRuns: readonly ActiveRun[];
  activeUploads: number;
  /** Failures notified since the user last opened the window. */
  unseenFailures: number;
  /** Drafts of automation runs waiting in the inbox for a person. */
  inboxDrafts?: number;
  update: Readonly<{ phase: UpdatePhase; version: string | null }>;
}>;

/** Attention wins (something needs the user), then running (work in progress), else ok. */
export function trayState(inputs: TrayInputs): TrayState {
  if (inputs.connection !== 'connected' || inputs.executorError !== null || inputs.unseenFailures > 0) {
    return 'attention';
  }
  if (inputs.activeRuns.length > 0 || inputs.activeUploads > 0) return 'running';
  return 'ok';
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Windows cuts tray tooltips at 127 characters. */
export const TOOLTIP_MAX = 127;

export function trayTooltip(inputs: TrayInputs): string {
  const parts = ['Postdesk'];
  if (inputs.connection === 'disconnected') parts.push('not connected');
  else if (inputs.connection === 'error') parts.push('connection problem');
  if (inputs.unseenFailures > 0) parts.push(plural(inputs.unseenFailures, 'new failure', 'new failures'));
  if (inputs.inboxDrafts) parts.push(plural(inputs.inboxDrafts, 'draft', 'drafts') + ' to review');
  if (inputs.executorError !== null) parts.push('executor error');
  if (inputs.executor === 'paused') parts.push('executor paused');
  if (inputs.executor === 'registering') parts.push('executor registering');
  if (inputs.activeRuns.length > 0)
    parts.push(plural(inputs.activeRuns.length, 'run', 'runs') + ' in progress');
  if (inputs.activeUploads > 0)
    parts.push(plural(inputs.activeUploads, 'upload', 'uploads') + ' in progress');
  if (parts.length === 1) parts.push('all quiet');
  const text = parts.join(' · ');
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

export const TRAY_ACTIONS = [
  'open',
  'pause',
  'resume',
  'check-updates',
  'restart-to-update',
  'open-logs',
  'open-inbox',
  'quit',
] as const;
export type TrayAction = (typeof TRAY_ACTIONS)[number];

/** A menu item as plain data: `action` names what a click does. */
export type TrayMenuItem = Readonly<
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction; toolTip?: string }
>;

/** How many runs the menu lists by name before summarising the rest. */
export const MENU_RUNS_MAX = 8;
const NAME_MAX = 48;

/**
 * Run names are user text: on one line, line breaks, control and bidi characters shown escaped, cut between graphemes
 * (src-shared/safe-text.ts), and `&` doubled so Windows does not read it as a mnemonic.
 */
export function menuLabel(text: string): string {
  return (safeLine(text.trim(), { max: NAME_MAX }) || 'Untitled').replace(/&/g, '&&');
}

export function buildTrayMenuTemplate(inputs: TrayInputs): readonly TrayMenuItem[] {
  const items: TrayMenuItem[] = [{ type: 'normal', label: 'Open Postdesk', enabled: true, action: 'open' }];
  if (inputs.inboxDrafts) {
    items.push({
      type: 'normal',
      label: `Review drafts (${inputs.inboxDrafts})`,
      enabled: true,
      action: 'open-inbox',
    });
  }
  items.push({ type: 'separator' });

  const canControl = inputs.executor !== 'stopped';
  items.push(
    inputs.executor === 'paused'
      ? { type: 'normal', label: 'Resume executor', enabled: canControl, action: 'resume' }
      : { type: 'normal', label: 'Pause executor', enabled: canControl, action: 'pause' },
  );
  if (inputs.executor === 'registering')
    items.push({ type: 'normal', label: 'Executor registering with the service…', enabled: false });

  const runs = inputs.activeRuns;
  if (runs.length > 0) {
    items.push({ type: 'separator' });
    items.push({ type: 'normal', label: `Runs in progress (${runs.length})`, enabled: false });
    for (const run of runs.slice(0, MENU_RUNS_MAX)) {
      items.push({ type: 'normal', label: menuLabel(run.name), enabled: false, toolTip: run.id });
    }
    if (runs.length > MENU_RUNS_MAX) {
      items.push({ type: 'normal', label: `and ${runs.length - MENU_RUNS_MAX} more`, enabled: false });
    }
  }

  items.push({ type: 'separator' });
  items.push(updateItem(inputs.update));
  items.push({ type: 'separator' });
  items.push({ type: 'normal', label: 'Open logs folder', enabled: true, action: 'open-logs' });
  items.push({ type: 'normal', label: 'Quit Postdesk', enabled: true, action: 'quit' });
  return items;
}

function updateItem(update: TrayInputs['update']): TrayMenuItem {
  const v = update.version ? ` (${update.version})` : '';
  switch (update.phase) {
    case 'checking':
      return { type: 'normal', label: 'Checking for updates…', enabled: false };
    case 'downloading':
      return { type: 'normal', label: `Downloading update${v}…`, enabled: false };
    case 'downloaded':
    case 'waiting-for-idle':
      return { type: 'normal', label: `Restart to update${v}`, enabled: true, action: 'restart-to-update' };
    case 'installing':
      return { type: 'normal', label: 'Installing update…', enabled: false };
    case 'disabled':
    case 'unsupported':
      return { type: 'normal', label: 'Check for updates', enabled: false };
    default:
      return { type: 'normal', label: 'Check for updates', enabled: true, action: 'check-updates' };
  }
}

export type TrayActions = Readonly<Record<TrayAction, () => void>>;

export function toElectronTemplate(
  items: readonly TrayMenuItem[],
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { type: 'separator' };
    const action = item.action;
    return {
      type: 'normal',
      label: item.label,
      enabled: item.enabled,
      ...(item.toolTip ? { toolTip: item.toolTip } : {}),
      ...(action ? { click: () => actions[action]() } : {}),
    };
  });
}

export type TrayImages = Readonly<Record<TrayState, NativeImage>>;

/**
 * The file for a state. macOS gets the monochrome `…Template.png` drawing: a template image is only
 * its alpha, which the menu bar paints black or white to match a light or dark bar (and highlights
 * when clicked). Elsewhere the grey glyph with its coloured state dot.
 */
export function trayImageFile(state: TrayState, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `tray-${state}Template.png` : `tray-${state}.png`;
}

/** Loads each state's image (Electron picks up the `@2x` files beside them on HiDPI screens). */
export function loadTrayImages(dir: string, platform: NodeJS.Platform): TrayImages {
  const load = (s: TrayState): NativeImage => {
    const image = nativeImage.createFromPath(join(dir, trayImageFile(s, platform)));
    // The "Template" file name already says so; set it too, so it holds whatever the file is called.
    if (platform === 'darwin') image.setTemplateImage(true);
    return image;
  };
  return { ok: load('ok'), running: load('running'), attention: load('attention') };
}

export type TrayControllerDeps = Readonly<{
  images: TrayImages;
  actions: TrayActions;
  /** A fresh snapshot of the inputs; called on every refresh. */
  inputs: () => TrayInputs;
}>;

/** What the tray shows, read back from Electron's own Tray and Menu (the launch tests' hook reports it). */
export type TrayShown = Readonly<{
  alive: boolean;
  state: TrayState;
  items: ReadonlyArray<Readonly<{ type: string; label: string; enabled: boolean }>>;
}>;

export class TrayController implements Disposable {
  private readonly tray: Tray;
  private shown: TrayState;
  private menu: Menu | null = null;

  constructor(private readonly deps: TrayControllerDeps) {
    const inputs = deps.inputs();
    this.shown = trayState(inputs);
    this.tray = new Tray(deps.images[this.shown]);
    // Windows and macOS: a click opens the window. Linux app indicators only show the menu.
    this.tray.on('click', () => deps.actions.open());
    this.render(inputs);
  }

  /** Recomputes icon, tooltip and menu (Linux needs the menu set again for changes to show). */
  refresh(): void {
    this.render(this.deps.inputs());
  }

  get state(): TrayState {
    return this.shown;
  }

  private render(inputs: TrayInputs): void {
    if (this.tray.isDestroyed()) return;
    const state = trayState(inputs);
    if (state !== this.shown) {
      this.shown = state;
      this.tray.setImage(this.deps.images[state]);
    }
    this.tray.setToolTip(trayTooltip(inputs));
    this.menu = Menu.buildFromTemplate(toElectronTemplate(buildTrayMenuTemplate(inputs), this.deps.actions));
    this.tray.setContextMenu(this.menu);
  }

  describe(): TrayShown {
    return {
      alive: !this.tray.isDestroyed(),
      state: this.shown,
      items: (this.menu?.items ?? []).map((i) => ({ type: i.type, label: i.label, enabled: i.enabled })),
    };
  }

  dispose(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }
}
