/**
 * electron-updater for real, under Node: its own AppImageUpdater checks a generic feed served here on
 * loopback, downloads the new build and verifies its sha512, and our policy decides when it installs.
 * Only the Electron runtime is faked (app, net.request on Node's http, the tray); the feed, the download,
 * the checksum, the cache and the AppImage swap are electron-updater's own code on real files.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { electronFake, installElectronForRequire } from '../helpers/electron-fake';
import {
  FakeConnection,
  FakeExecutor,
  FakeSettings,
  FakeUploads,
  MemoryLog,
  until,
} from '../helpers/shell-fakes';
import type { UpdateState } from '../../src-main/app/update-state';
import type { UpdaterEngine } from '../../src-main/app/updater';

vi.mock('electron', () => electronFake.module);

const { AppImageUpdater } = await import('electron-updater');
const { activityOf, loadAutoUpdater, UpdateService } = await import('../../src-main/app/updater');
const { startShell } = await import('../../src-main/app/shell');
const { LinuxAutostart, LoginItemService } = await import('../../src-main/app/login-item');

const require = createRequire(import.meta.url);
const builderConfig = require('../../electron-builder.config.cjs') as {
  publish: Array<Record<string, unknown>>;
};

const archSuffix = process.arch === 'x64' ? '' : `-${process.arch}`;
/** A tiny stand-in AppImage: electron-updater runs it after the swap, so it must be an executable. */
const build = (version: string): Buffer =>
  Buffer.from(`#!/bin/sh\n# Postdesk ${version}\nexit 0\n${'#'.repeat(4096)}\n`);
const sha512 = (b: Buffer): string => createHash('sha512').update(b).digest('base64');

/** What the release workflow writes into the update files (releaseInfo.releaseNotesFile). */
const notesOf = (version: string): string => `## Postdesk ${version}\n\n- The tray follows a dark menu bar`;

function channelFile(version: string, file: string, body: Buffer): string {
  // The shape electron-builder writes (latest-linux.yml): YAML, here in its JSON subset.
  return JSON.stringify({
    version,
    files: [{ url: file, sha512: sha512(body), size: body.length }],
    path: file,
    sha512: sha512(body),
    releaseDate: '2025-01-01T00:00:00.000Z',
    releaseNotes: notesOf(version),
  });
}

let root = '';
let server: Server;
let feedUrl = '';
const requests: string[] = [];
const feed = new Map<string, Buffer>();
let restoreRequire: () => void = () => {};
const saved = {
  APPIMAGE: process.env.APPIMAGE,
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'postdesk-updater-'));
  const stable = build('0.2.0');
  const beta = build('0.3.0-beta.1');
  feed.set(
    `/latest-linux${archSuffix}.yml`,
    Buffer.from(channelFile('0.2.0', 'Postdesk-0.2.0.AppImage', stable)),
  );
  feed.set('/Postdesk-0.2.0.AppImage', stable);
  feed.set(
    `/beta-linux${archSuffix}.yml`,
    Buffer.from(channelFile('0.3.0-beta.1', 'Postdesk-0.3.0-beta.1.AppImage', beta)),
  );
  feed.set('/Postdesk-0.3.0-beta.1.AppImage', beta);

  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const body = feed.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  feedUrl = `http://127.0.0.1:${address.port}/`;

  // A packaged app's layout: resources/app-update.yml is what electron-builder writes from the first
  // publish entry of electron-builder.config.cjs; only the URL points at this test's feed.
  const resources = join(root, 'resources');
  mkdirSync(resources);
  const published = builderConfig.publish[0];
  expect(published?.provider).toBe('generic');
  writeFileSync(
    join(resources, 'app-update.yml'),
    JSON.stringify({ ...published, url: feedUrl, updaterCacheDirName: 'postdesk-updater' }),
  );
  Object.defineProperty(process, 'resourcesPath', { value: resources, configurable: true, writable: true });

  const app = electronFake.app;
  app.isPackaged = true;
  app.version = '0.1.0';
  app.paths.userData = join(root, 'userData');
  restoreRequire = installElectronForRequire();
});

afterAll(async () => {
  restoreRequire();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  Reflect.deleteProperty(process, 'resourcesPath');
  rmSync(root, { recursive: true, force: true });
});

/** A fresh "installed AppImage" and updater cache for one scenario. */
function installedApp(name: string): { appImage: string; cache: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'Applications'), { recursive: true });
  const appImage = join(dir, 'Applications', 'Postdesk.AppImage');
  writeFileSync(appImage, build('0.1.0'));
  chmodSync(appImage, 0o755);
  process.env.APPIMAGE = appImage;
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  return { appImage, cache: join(dir, 'cache', 'postdesk-updater') };
}

describe('auto-update against a generic feed', () => {
  it('finds and downloads the update with its notes, leaves the running work alone, and installs at the next quit', async () => {
    const { appImage, cache } = installedApp('quit-install');
    const app = electronFake.app;
    const executor = new FakeExecutor();
    executor.startRun('run-1', 'Morning post');
    const uploads = new FakeUploads();
    const log = new MemoryLog();

    const engine = loadAutoUpdater();
    expect(engine).toBeInstanceOf(AppImageUpdater);

    const shell = await startShell({
      app: app as unknown as Electron.App,
      powerMonitor: electronFake.powerMonitor as unknown as Electron.PowerMonitor,
      argv: ['/x', '--hidden'],
      platform: 'linux',
      protocol: { defaultApp: false, execPath: '/x', entryScript: undefined },
      resourcesDir: '/res',
      log,
      createWindow: () => {
        throw new Error('no window in this test');
      },
      navigate: () => {},
      services: async () => ({
        executor,
        uploads,
        connection: new FakeConnection(),
        settings: new FakeSettings(),
        loginItem: new LoginItemService({
          app: app as unknown as Electron.App,
          platform: 'linux',
          isPackaged: false,
          linux: new LinuxAutostart({ configHome: root, id: 'postdesk', name: 'Postdesk', executable: '/x' }),
          log,
        }),
        updater: engine,
      }),
    });
    const updates = shell?.updates;
    if (!updates) throw new Error('the shell started without its update service');
    const phases: string[] = [];
    updates.onDidChangeUpdateState((s) => phases.push(s.phase));

    await until(() => updates.state().phase === 'downloaded', 'the downloaded update', 10_000);
    const state: UpdateState = updates.state();
    expect(state).toMatchObject({
      availableVersion: '0.2.0',
      releaseNotes: notesOf('0.2.0'),
      channel: 'stable',
      currentVersion: '0.1.0',
      waitingFor: null,
      restartRequested: false,
      error: null,
    });
    expect(phases).toEqual(expect.arrayContaining(['downloading', 'downloaded']));
    expect(requests).toContain(`/latest-linux${archSuffix}.yml`);
    expect(requests).toContain('/Postdesk-0.2.0.AppImage');
    expect(electronFake.state.netRequests.some((r) => r.includes('/Postdesk-0.2.0.AppImage'))).toBe(true);

    // The file arrived and verifies against the feed's sha512.
    const downloaded = join(cache, 'pending', 'Postdesk-0.2.0.AppImage');
    expect(sha512(readFileSync(downloaded))).toBe(sha512(feed.get('/Postdesk-0.2.0.AppImage') as Buffer));

    // Nothing installed, nothing quit, the run untouched; and when it ends, the app does not restart
    // by itself either: the update waits for the quit (or "restart now").
    await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(appImage)).toEqual(build('0.1.0'));
    expect(app.calls.quit).toBe(0);
    expect(executor.calls.stop).toEqual([]);
    expect(electronFake.lastMenu().labels()).toContain('Restart to update (0.2.0)');
    executor.finishRun('run-1');
    await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(appImage)).toEqual(build('0.1.0'));
    expect(updates.state().phase).toBe('downloaded');
    expect(app.calls.quit).toBe(0);

    // The user quits: the work drains, then electron-updater's quitAndInstall swaps the AppImage and
    // quits, without starting the app again.
    let beforeQuitForUpdate = 0;
    electronFake.module.autoUpdater.on('before-quit-for-update', () => (beforeQuitForUpdate += 1));
    app.quit();
    await until(() => app.quitted, 'the quit with the install', 10_000);

    expect(executor.calls.stop).toHaveLength(1);
    expect(executor.calls.failRun).toEqual([]);
    expect(readFileSync(appImage)).toEqual(feed.get('/Postdesk-0.2.0.AppImage'));
    expect(existsSync(downloaded)).toBe(false);
    expect(beforeQuitForUpdate).toBe(1);
    // The installer's quit went through, rather than the drain's exit(0); and nothing relaunches.
    expect(app.calls.exit).toEqual([]);
    expect(app.calls.relaunch).toBe(0);
    expect(updates.state().phase).toBe('installing');
    shell?.dispose();
  });

  it('"restart now" during a run pauses the executor and waits for the run; the beta channel reads beta-linux.yml', async () => {
    const { appImage } = installedApp('restart-now');
    const executor = new FakeExecutor();
    executor.startRun('run-2', 'Long video');
    const uploads = new FakeUploads();
    const log = new MemoryLog();
    const engine: UpdaterEngine = new AppImageUpdater();
    const quitAndInstall = vi.spyOn(engine, 'quitAndInstall');
    let prepared = 0;

    const updates = new UpdateService({
      engine,
      activity: activityOf(executor, uploads),
      executor,
      prepareToInstall: async () => {
        prepared += 1;
      },
      channel: 'beta',
      currentVersion: '0.1.0',
      log,
    });
    await updates.checkNow();
    await until(() => updates.state().phase === 'downloaded', 'the downloaded beta update', 10_000);
    expect(requests).toContain(`/beta-linux${archSuffix}.yml`);
    expect(updates.state()).toMatchObject({
      availableVersion: '0.3.0-beta.1',
      releaseNotes: notesOf('0.3.0-beta.1'),
    });
    expect(quitAndInstall).not.toHaveBeenCalled();

    updates.restartNow();
    expect(executor.isPaused()).toBe(true);
    expect(updates.state()).toMatchObject({ phase: 'waiting-for-idle', restartRequested: true });
    expect(quitAndInstall).not.toHaveBeenCalled();
    expect(prepared).toBe(0);

    // An upload starting meanwhile holds it back as well.
    uploads.start('u1', 'clip.mp4');
    executor.finishRun('run-2');
    expect(updates.state().waitingFor).toEqual({ activeRuns: 0, activeUploads: 1 });
    expect(quitAndInstall).not.toHaveBeenCalled();
    uploads.finish('u1');
    await until(() => quitAndInstall.mock.calls.length === 1, 'quitAndInstall');
    expect(quitAndInstall).toHaveBeenCalledWith(true, true);
    expect(prepared).toBe(1);
    expect(readFileSync(appImage)).toEqual(feed.get('/Postdesk-0.3.0-beta.1.AppImage'));
    updates.dispose();
  });
});
