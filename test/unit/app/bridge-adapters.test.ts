import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { electronFake } from '../../helpers/electron-fake';
import { FakeExecutor, MemoryLog } from '../../helpers/shell-fakes';
import type { DeliveryFailed } from '../../../src-shared/ipc/posts';
import type { UpdateState } from '../../../src-shared/ipc/updates';
import type { EventChannelName } from '../../../src-shared/ipc/contract';

vi.mock('electron', () => electronFake.module);

const { NotificationService } = await import('../../../src-main/app/notifications');
const { DeepLinkRouter } = await import('../../../src-main/app/deep-links');
const { Emitter } = await import('../../../src-main/core/common/events');
const { deliveryEventsOf, disabledUpdateState, updatesPortFor } =
  await import('../../../src-main/app/bridge-adapters');
const { LinuxAutostart, LoginItemService } = await import('../../../src-main/app/login-item');
const { observeSettings } = await import('../../../src-main/app/settings-source');
const { openLocal } = await import('../../../src-main/core/services');
const { MemorySecretStore } = await import('../../../src-main/host/memory-secret-store');
const { createBridgeSession } = await import('../../../src-main/host/session');
const { assembleBridge } = await import('../../../src-main/core/bridge/assemble');
const { desktopPreviewUrl } = await import('../../../src-main/host/media-url');
const { createThumbnails } = await import('../../../src-main/host/thumbnails');

const DELIVERY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'postdesk-adapters-'));
  dirs.push(d);
  return d;
};

/** The desktop's bridge core on a real store, with the shell's observed settings, never connected. */
function desktopBridge() {
  const dir = tempDir();
  const local = openLocal(dir, new MemorySecretStore());
  const observed = observeSettings(local.settings);
  const session = createBridgeSession({ secrets: local.secrets, settings: observed.service, env: {} });
  const bridge = assembleBridge({
    host: 'electron',
    version: '1.2.3',
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    thumbnails: createThumbnails(),
    stagingDir: join(dir, 'staging'),
    deliveryWatchMs: false,
  });
  const events: { channel: EventChannelName; payload: unknown }[] = [];
  // A recorder, not a page: it answers `false` (nothing delivered), as the IPC gate does while no window shows.
  bridge.dispatcher.subscribe((channel, payload) => {
    events.push({ channel, payload });
    return false;
  });
  return {
    dir,
    bridge,
    observed,
    events,
    close: async () => {
      bridge.close();
      await session.close();
      local.store.close();
    },
  };
}

describe('a failed delivery, from the core watcher to the screen', () => {
  it('notifies, and a click opens the post in a window that asks for its route only after loading', async () => {
    electronFake.reset();
    const d = desktopBridge();
    try {
      const log = new MemoryLog();
      const router = new DeepLinkRouter(log);
      // As main.ts: a route goes through the bridge's inbox (event now, kept for app:pendingRoute).
      router.attach({ reveal: () => undefined, navigate: (route) => d.bridge.routes.open(route) });
      const notifications = new NotificationService({ router, reveal: () => undefined, log });
      const failures = new Emitter<DeliveryFailed>();
      const watch = { onDidFailDelivery: failures.event };
      notifications.bind({ runs: new FakeExecutor(), deliveries: deliveryEventsOf(watch) });

      failures.fire({
        id: DELIVERY,
        post_id: 'p1',
        platform: 'instagram',
        social_account_id: 'acc',
        error: 'Media rejected',
        failed_at: '2030-01-01T12:00:00.000Z',
        link: `postdesk://post/${DELIVERY}`,
      });
      const [n] = electronFake.state.notifications;
      expect(n?.options).toEqual({ title: 'Instagram delivery failed', body: 'Media rejected' });
      n?.click();

      expect(d.events).toContainEqual({
        channel: 'app:didOpenRoute',
        payload: { kind: 'post', id: DELIVERY },
      });
      const pending = await d.bridge.dispatcher.invoke('app:pendingRoute', undefined);
      expect(pending).toEqual({ ok: true, value: { route: { kind: 'post', id: DELIVERY } } });
      // Taken once: a later page load does not jump there again.
      expect(await d.bridge.dispatcher.invoke('app:pendingRoute', undefined)).toEqual({
        ok: true,
        value: { route: null },
      });
      notifications.dispose();
    } finally {
      await d.close();
    }
  });
});

describe('settings the shell applies', () => {
  it('start_at_login and update_channel through the bridge reach the login item and the update channel', async () => {
    const d = desktopBridge();
    try {
      const configHome = tempDir();
      const linux = new LinuxAutostart({
        configHome,
        id: 'postdesk',
        name: 'Postdesk',
        executable: '/opt/Postdesk',
      });
      const loginItem = new LoginItemService({
        app: { setLoginItemSettings: () => undefined },
        platform: 'linux',
        isPackaged: true,
        linux,
        log: new MemoryLog(),
      });
      loginItem.bind(d.observed.source);
      const channels: string[] = [];
      d.observed.source.onDidChange((s) => channels.push(s.updateChannel));
      expect(existsSync(linux.file)).toBe(false);

      const got = await d.bridge.dispatcher.invoke('settings:get', undefined);
      expect(got).toMatchObject({ ok: true, value: { start_at_login: false, update_channel: 'stable' } });

      const res = await d.bridge.dispatcher.invoke('settings:update', {
        start_at_login: true,
        update_channel: 'beta',
      });
      expect(res).toMatchObject({ ok: true, value: { start_at_login: true, update_channel: 'beta' } });
      expect(readFileSync(linux.file, 'utf8')).toContain('/opt/Postdesk');
      expect(channels).toEqual(['beta']);
      expect(d.events).toContainEqual(
        expect.objectContaining({
          channel: 'settings:didChange',
          payload: expect.objectContaining({ update_channel: 'beta' }),
        }),
      );

      await d.bridge.dispatcher.invoke('settings:update', { start_at_login: false });
      expect(existsSync(linux.file)).toBe(false);
      expect(
        await d.bridge.dispatcher.invoke('settings:update', { update_channel: 'nightly' }),
      ).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    } finally {
      await d.close();
    }
  });
});

describe('the updates channels on the desktop', () => {
  const state = (patch: Partial<UpdateState>): UpdateState => ({
    ...disabledUpdateState('stable', '1.2.3'),
    phase: 'idle',
    ...patch,
  });

  it('answer the update service once the shell has made it, and `disabled` before (or in a dev run)', async () => {
    let current = state({});
    const service = {
      state: () => current,
      checkNow: vi.fn(async () => {
        current = state({ phase: 'downloading', availableVersion: '1.3.0' });
      }),
      restartNow: vi.fn(() => {
        current = { ...current, restartRequested: true };
      }),
    };
    let made: typeof service | null = null;
    const port = updatesPortFor(
      () => made,
      () => disabledUpdateState('beta', '1.2.3'),
    );
    expect(port.state()).toMatchObject({ phase: 'disabled', channel: 'beta', currentVersion: '1.2.3' });
    expect(await port.check()).toMatchObject({ phase: 'disabled' });

    made = service;
    expect(await port.check()).toMatchObject({ phase: 'downloading', availableVersion: '1.3.0' });
    expect(service.checkNow).toHaveBeenCalledTimes(1);
    expect(port.restartNow()).toMatchObject({ restartRequested: true });
  });

  it('are served by the bridge with the contract’s schema', async () => {
    const d = desktopBridge();
    try {
      // Without an updater port (as `postdesk web`): managed elsewhere.
      expect(await d.bridge.dispatcher.invoke('updates:state', undefined)).toMatchObject({
        ok: true,
        value: { phase: 'unsupported', currentVersion: '1.2.3', channel: 'stable' },
      });
      d.bridge.events.emit('updates:didChangeUpdateState', state({ phase: 'checking' }));
      expect(d.events).toContainEqual({
        channel: 'updates:didChangeUpdateState',
        payload: expect.objectContaining({ phase: 'checking' }),
      });
    } finally {
      await d.close();
    }
  });
});
