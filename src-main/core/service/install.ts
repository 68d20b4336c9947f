import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { LAUNCHD_LABEL, launchdPlist } from './launchd';
import type { ServiceSpec } from './spec';
import { SYSTEMD_UNIT_NAME, systemdUnit } from './systemd';
import { schtasks, TASK_NAME, taskSchedulerXml, taskXmlBytes } from './task-scheduler';
import { ensureDir, ensurePrivateDir, pathExistsSync, removePath, writePrivateFile } from '../files';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The machine a service is installed on: its platform, where its files go, and how its manager is called. */
export interface ServiceHost {
  readonly platform: NodeJS.Platform;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  /** A scratch directory (Windows: the task's XML is handed to schtasks as a file). */
  readonly tmpDir: string;
  readonly run: (command: string, args: readonly string[]) => Promise<CommandResult>;
}

/** Runs a service manager's command; a missing program is a result (code 127), not a throw. */
export function runCommand(command: string, args: readonly string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: 30_000, windowsHide: true }, (err, stdout, stderr) => {
      const code =
        err === null ? 0 : typeof err.code === 'number' ? err.code : err.code === 'ENOENT' ? 127 : 1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err?.message ?? '')) });
    });
  });
}

/** Where the entry lives: a unit file, a plist, or (Windows) the task's name in the scheduler. */
export function serviceLocation(host: Pick<ServiceHost, 'platform' | 'home' | 'env'>): string {
  switch (host.platform) {
    case 'linux':
      return join(
        host.env.XDG_CONFIG_HOME || join(host.home, '.config'),
        'systemd',
        'user',
        SYSTEMD_UNIT_NAME,
      );
    case 'darwin':
      return join(host.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    case 'win32':
      return TASK_NAME;
    default:
      throw new Error(`postdesk has no service entry for ${host.platform}`);
  }
}

/** Where launchd writes the daemon's output. */
export const launchdLogFile = (home: string): string =>
  join(home, 'Library', 'Logs', 'Postdesk', 'executor.log');

async function must(host: ServiceHost, command: string, args: readonly string[]): Promise<void> {
  const r = await host.run(command, args);
  if (r.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
}

export interface InstallResult {
  readonly location: string;
  readonly started: boolean;
}

/** Writes the entry; with `start`, also has the manager load, enable and start it. */
export async function installService(
  spec: ServiceSpec,
  host: ServiceHost,
  o: { readonly start: boolean },
): Promise<InstallResult> {
  const location = serviceLocation(host);
  if (host.platform === 'linux') {
    const text = systemdUnit(spec);
    await ensureDir(join(location, '..'));
    await writePrivateFile(location, text);
    if (o.start) {
      await must(host, 'systemctl', ['--user', 'daemon-reload']);
      await must(host, 'systemctl', ['--user', 'enable', '--now', SYSTEMD_UNIT_NAME]);
    }
  } else if (host.platform === 'darwin') {
    const text = launchdPlist(spec);
    await ensureDir(join(location, '..'));
    if (spec.logFile) await ensurePrivateDir(join(spec.logFile, '..'));
    await writePrivateFile(location, text);
    if (o.start) {
      const domain = `gui/${host.uid}`;
      // A loaded older entry is replaced: bootstrap refuses a label that is already loaded.
      await host.run('launchctl', ['bootout', `${domain}/${LAUNCHD_LABEL}`]);
      await must(host, 'launchctl', ['bootstrap', domain, location]);
    }
  } else {
    const user = `${host.env.USERDOMAIN ?? '.'}\\${host.env.USERNAME ?? ''}`;
    const text = taskSchedulerXml(spec, user);
    const file = join(host.tmpDir, 'postdesk-executor-task.xml');
    await writePrivateFile(file, taskXmlBytes(text));
    try {
      await must(host, 'schtasks', schtasks.create(file));
    } finally {
      await removePath(file);
    }
    if (o.start) await must(host, 'schtasks', schtasks.run());
  }
  return { location, started: o.start };
}

/** Stops and removes the entry; with `stop: false`, only removes the file (the manager is not called). */
export async function uninstallService(
  host: ServiceHost,
  o: { readonly stop: boolean },
): Promise<{ readonly location: string; readonly removed: boolean }> {
  const location = serviceLocation(host);
  if (host.platform === 'win32') {
    if (o.stop) await host.run('schtasks', schtasks.end());
    const r = await host.run('schtasks', schtasks.delete());
    return { location, removed: r.code === 0 };
  }
  const existed = pathExistsSync(location);
  if (o.stop) {
    if (host.platform === 'linux')
      await host.run('systemctl', ['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]);
    else await host.run('launchctl', ['bootout', `gui/${host.uid}/${LAUNCHD_LABEL}`]);
  }
  await removePath(location);
  if (o.stop && host.platform === 'linux') await host.run('systemctl', ['--user', 'daemon-reload']);
  return { location, removed: existed };
}

export interface ServiceStatus {
  readonly platform: NodeJS.Platform;
  readonly location: string;
  readonly installed: boolean;
  /** What the manager says (`active (running)`, `running`, `Ready`…), or null when it could not be asked. */
  readonly state: string | null;
  readonly pid: number | null;
  /** Why the manager could not be asked. */
  readonly problem: string | null;
}

const field = (text: string, re: RegExp): string | null => re.exec(text)?.[1]?.trim() ?? null;

/** Whether the entry exists, and what the service manager says about it. */
export async function serviceStatus(host: ServiceHost): Promise<ServiceStatus> {
  const location = serviceLocation(host);
  const base = { platform: host.platform, location };
  if (host.platform === 'linux') {
    const installed = pathExistsSync(location);
    const r = await host.run('systemctl', [
      '--user',
      'show',
      '-p',
      'ActiveState',
      '-p',
      'SubState',
      '-p',
      'MainPID',
      SYSTEMD_UNIT_NAME,
    ]);
    if (r.code !== 0) return { ...base, installed, state: null, pid: null, problem: r.stderr.trim() };
    const active = field(r.stdout, /^ActiveState=(.*)$/m);
    const sub = field(r.stdout, /^SubState=(.*)$/m);
    const pid = Number(field(r.stdout, /^MainPID=(\d+)$/m) ?? 0);
    return { ...base, installed, state: `${active} (${sub})`, pid: pid > 0 ? pid : null, problem: null };
  }
  if (host.platform === 'darwin') {
    const installed = pathExistsSync(location);
    const r = await host.run('launchctl', ['print', `gui/${host.uid}/${LAUNCHD_LABEL}`]);
    if (r.code !== 0)
      return { ...base, installed, state: installed ? 'not loaded' : null, pid: null, problem: null };
    const pid = Number(field(r.stdout, /^\s*pid = (\d+)$/m) ?? 0);
    return {
      ...base,
      installed,
      state: field(r.stdout, /^\s*state = (.*)$/m),
      pid: pid > 0 ? pid : null,
      problem: null,
    };
  }
  const r = await host.run('schtasks', schtasks.query());
  if (r.code !== 0) return { ...base, installed: false, state: null, pid: null, problem: null };
  return { ...base, installed: true, state: field(r.stdout, /^Status:\s*(.*)$/m), pid: null, problem: null };
}
