/**
 * The `postdesk` launcher the desktop app installs on request: what it writes where, per platform, in temp
 * folders; the POSIX launcher run for real with `sh` and this Node; Windows's PATH changes through a fake of
 * the registry (the one edge that cannot run here).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LauncherConflictError,
  installLauncher,
  launcherStatus,
  uninstallLauncher,
  type LauncherHost,
  type UserPathPort,
} from '../../../../src-main/core/command-line/install';
import {
  launcherTarget,
  planLauncher,
  windowsLauncher,
  withPathEntry,
  withoutPathEntry,
} from '../../../../src-main/core/command-line/launcher';
import { windowsUserPath } from '../../../../src-main/core/command-line/windows-path';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function setUp(): { home: string; cli: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'launcher-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  // Stands for <resources>/app.asar.unpacked/bin/postdesk.js: prints what it was given.
  const cli = join(root, "Post'desk app", 'bin', 'postdesk.js');
  mkdirSync(dirname(cli), { recursive: true });
  writeFileSync(cli, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
  return { home, cli, root };
}

const nodeDir = dirname(process.execPath);
const v24 = async () => 'v24.1.0';

describe('the launcher on Linux', () => {
  const host = (o: { home: string; cli: string }, env: Record<string, string> = {}): LauncherHost => ({
    platform: 'linux',
    home: o.home,
    cliScript: o.cli,
    env: { PATH: `/usr/bin:${join(o.home, '.local', 'bin')}`, ...env },
    nodeVersion: v24,
  });

  it('goes to ~/.local/bin/postdesk, private and runnable, and runs the CLI with the Node on the PATH', async () => {
    const o = setUp();
    const state = await installLauncher(host(o));
    const file = join(o.home, '.local', 'bin', 'postdesk');
    expect(state).toEqual({ supported: true, installed: true, location: file, notes: [] });
    expect(statSync(file).mode & 0o777).toBe(0o700);
    expect(launcherTarget(readFileSync(file, 'utf8'))).toBe(o.cli);

    const run = (path: string) =>
      spawnSync('/bin/sh', [file, 'accounts', '--json', 'two words'], {
        env: { PATH: path },
        encoding: 'utf8',
      });
    const ok = run(`${nodeDir}:/usr/bin:/bin`);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual(['accounts', '--json', 'two words']);

    const noNode = run('/nonexistent');
    expect(noNode.status).toBe(127);
    expect(noNode.stderr).toMatch(/runs with Node\.js 22\.12 or later, and there is no node on your PATH/);

    rmSync(o.cli);
    const moved = run(`${nodeDir}:/usr/bin:/bin`);
    expect(moved.status).toBe(1);
    expect(moved.stderr).toMatch(/is no longer at .*postdesk\.js; install the command again/);
  });

  it('says when ~/.local/bin is not on the PATH, and when the Node on the PATH is too old or missing', async () => {
    const o = setUp();
    const h = { ...host(o), env: { PATH: '/usr/bin' }, nodeVersion: async () => 'v20.11.0' };
    const state = await installLauncher(h);
    expect(state.notes).toEqual([
      `${join(o.home, '.local', 'bin')} is not on your PATH yet: add it in your shell's settings, then open a new terminal.`,
      'The command runs with Node.js 22.12 or later; the Node.js on your PATH is v20.11.0. Install a newer Node.js.',
    ]);
    const none = await launcherStatus({ ...h, nodeVersion: async () => null });
    expect(none.notes.at(-1)).toMatch(/Postdesk found none on your PATH/);
  });

  it('never replaces nor removes a postdesk it did not write, and removes its own', async () => {
    const o = setUp();
    const file = join(o.home, '.local', 'bin', 'postdesk');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\nexec node /somewhere/npm/postdesk.js "$@"\n');
    await expect(installLauncher(host(o))).rejects.toBeInstanceOf(LauncherConflictError);
    expect(await uninstallLauncher(host(o))).toMatchObject({ installed: false });
    expect(readFileSync(file, 'utf8')).toContain('/somewhere/npm/');

    rmSync(file);
    await installLauncher(host(o));
    // Installing again (a new copy of the app) replaces its own launcher in place.
    const moved = { ...o, cli: join(o.root, 'elsewhere', 'postdesk.js') };
    expect(await launcherStatus(host(moved))).toMatchObject({
      installed: true,
      notes: ['It runs a copy of Postdesk that is no longer here: install it again to point it at this one.'],
    });
    await installLauncher(host(moved));
    expect(launcherTarget(readFileSync(file, 'utf8'))).toBe(moved.cli);
    expect(await uninstallLauncher(host(moved))).toMatchObject({ installed: false, location: file });
    expect(existsSync(file)).toBe(false);
  });

  it('is not offered from an AppImage, which moves at every start', async () => {
    const o = setUp();
    const state = await installLauncher(host(o, { APPIMAGE: '/home/u/Postdesk.AppImage' }));
    expect(state).toMatchObject({ supported: false, installed: false, location: null });
    expect(state.notes[0]).toMatch(/AppImage/);
    expect(existsSync(join(o.home, '.local', 'bin'))).toBe(false);
  });

  it('refuses a folder name the launcher cannot quote safely', () => {
    expect(
      planLauncher({
        platform: 'linux',
        home: '/h',
        env: {},
        cliScript: '/a"b/postdesk.js',
        canWrite: () => true,
      }),
    ).toMatchObject({ kind: 'unsupported' });
  });
});

describe('the launcher on macOS', () => {
  const host = (o: { home: string; cli: string; root: string }, writable: boolean): LauncherHost => ({
    platform: 'darwin',
    home: o.home,
    cliScript: o.cli,
    env: { PATH: '/usr/bin:/bin' },
    sharedBin: join(o.root, 'usr-local-bin'),
    canWrite: () => writable,
    nodeVersion: v24,
  });

  it('goes to /usr/local/bin when this user may write there, else to ~/.local/bin with the reason', async () => {
    const o = setUp();
    const shared = join(o.root, 'usr-local-bin');
    mkdirSync(shared);
    const home = await installLauncher(host(o, false));
    expect(home.location).toBe(join(o.home, '.local', 'bin', 'postdesk'));
    expect(home.notes[0]).toBe(
      `Postdesk may not write to ${shared} without administrator rights, so the command went to ${join(o.home, '.local', 'bin')}.`,
    );
    expect(existsSync(join(shared, 'postdesk'))).toBe(false);

    const sharedState = await installLauncher(host(o, true));
    expect(sharedState.location).toBe(join(shared, 'postdesk'));
    expect(statSync(join(shared, 'postdesk')).mode & 0o777).toBe(0o755);
    // The earlier one in ~/.local/bin is gone: one postdesk of ours, not two.
    expect(existsSync(join(o.home, '.local', 'bin', 'postdesk'))).toBe(false);
    expect(await uninstallLauncher(host(o, true))).toMatchObject({ installed: false });
    expect(existsSync(join(shared, 'postdesk'))).toBe(false);
  });
});

describe('the launcher on Windows', () => {
  /** HKCU\Environment's Path, kept in memory: the registry is the edge that cannot run here. */
  const registry = (value: string): UserPathPort & { value: string; sets: number } => {
    const r = {
      value,
      sets: 0,
      get: async () => r.value,
      set: async (v: string) => {
        r.value = v;
        r.sets += 1;
      },
    };
    return r;
  };
  const host = (o: { home: string; cli: string; root: string }, path: UserPathPort): LauncherHost => ({
    platform: 'win32',
    home: o.home,
    cliScript: o.cli,
    env: { LOCALAPPDATA: join(o.root, 'Local') },
    windowsPaths: posix,
    userPath: path,
    nodeVersion: v24,
  });

  it('writes postdesk.cmd in %LOCALAPPDATA%\\Postdesk\\bin and adds that folder to the user PATH once', async () => {
    const o = setUp();
    const reg = registry('%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;');
    const dir = join(o.root, 'Local', 'Postdesk', 'bin');
    const state = await installLauncher(host(o, reg));
    expect(state).toEqual({
      supported: true,
      installed: true,
      location: join(dir, 'postdesk.cmd'),
      notes: ['Open a new terminal window to use it: windows opened before do not see the change.'],
    });
    expect(reg.value).toBe(`%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;${dir}`);
    const text = readFileSync(join(dir, 'postdesk.cmd'), 'utf8');
    expect(text.split('\r\n')).toContain(`set "POSTDESK_CLI=${o.cli}"`);
    expect(text).not.toMatch(/[^\r]\n/);
    await installLauncher(host(o, reg));
    expect(reg.sets).toBe(1);

    expect(await uninstallLauncher(host(o, reg))).toMatchObject({ installed: false });
    expect(reg.value).toBe('%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps');
    expect(existsSync(dir)).toBe(false);
  });

  it('plans with Windows paths, and edits PATH values without touching other entries', () => {
    expect(
      planLauncher({
        platform: 'win32',
        home: 'C:\\Users\\Ann',
        env: { LOCALAPPDATA: 'C:\\Users\\Ann\\AppData\\Local' },
        cliScript: 'C:\\Program Files (x86)\\Postdesk\\resources\\app.asar.unpacked\\bin\\postdesk.js',
        canWrite: () => false,
      }),
    ).toMatchObject({ kind: 'place', file: 'C:\\Users\\Ann\\AppData\\Local\\Postdesk\\bin\\postdesk.cmd' });
    const dir = 'C:\\Users\\Ann\\AppData\\Local\\Postdesk\\bin';
    expect(withPathEntry('', dir)).toBe(dir);
    expect(withPathEntry('C:\\a;c:\\users\\ann\\appdata\\local\\postdesk\\BIN\\', dir)).toBe(
      'C:\\a;c:\\users\\ann\\appdata\\local\\postdesk\\BIN\\',
    );
    expect(withoutPathEntry(`C:\\a;${dir}\\;C:\\b`, dir)).toBe('C:\\a;C:\\b');
    expect(withoutPathEntry('C:\\a;;C:\\b', dir)).toBe('C:\\a;;C:\\b');
    // A folder in parentheses is set, never echoed inside a block.
    const cmd = windowsLauncher('C:\\Program Files (x86)\\Postdesk\\bin\\postdesk.js');
    expect(cmd).not.toMatch(/\(\r\n/);
    expect(launcherTarget(cmd)).toBe('C:\\Program Files (x86)\\Postdesk\\bin\\postdesk.js');
  });

  it('reads and writes the user PATH through PowerShell with the value in the environment, never in the script', async () => {
    const calls: { file: string; args: readonly string[]; env: NodeJS.ProcessEnv }[] = [];
    const port = windowsUserPath(async (file, args, o) => {
      calls.push({ file, args, env: o.env });
      return { stdout: 'C:\\a;C:\\b' };
    }, {});
    expect(await port.get()).toBe('C:\\a;C:\\b');
    await port.set("C:\\x'; Remove-Item C:\\ -Recurse; '");
    expect(calls.map((c) => c.file)).toEqual(['powershell.exe', 'powershell.exe']);
    expect(calls[0]?.args.at(-1)).toMatch(/DoNotExpandEnvironmentNames/);
    expect(calls[1]?.args.at(-1)).toMatch(/-Type ExpandString/);
    expect(calls[1]?.args.join(' ')).not.toContain('Remove-Item');
    expect(calls[1]?.env.POSTDESK_USER_PATH).toBe("C:\\x'; Remove-Item C:\\ -Recurse; '");
  });
});
