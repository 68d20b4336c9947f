import { sep } from 'node:path';
import type { ConfinementView } from './view';
import { isWithin, statPathSync } from '../../files';

/** Where users' files and sockets live: emptied for the agent, then the few paths it may use are bound back. */
const SHARED_ROOTS = ['/home', '/root', '/run/user', '/tmp', '/var/tmp', '/media', '/mnt'];

export type PathKind = 'dir' | 'other' | null;

function kindOf(p: string): PathKind {
  try {
    const st = statPathSync(p);
    return st === undefined ? null : st.isDirectory() ? 'dir' : 'other';
  } catch {
    return null;
  }
}

/**
 * bubblewrap's arguments (before `--` and the agent's command) for a view. The system is bound read-only,
 * then the shared roots, the home directory and every hidden path are covered (a tmpfs over a directory,
 * /dev/null over a file or socket), the program's paths bound back read-only before the hidden ones are
 * covered, and last the run directory read-write and the folders. Each hide is applied only where the
 * path is still visible at that point, so the list stays short and bwrap never has to create a mount
 * point in a read-only tree.
 */
export function bubblewrapArgs(view: ConfinementView, kind: (p: string) => PathKind = kindOf): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  const mounts: { dest: string; shows: boolean }[] = [{ dest: sep, shows: true }];
  const visible = (p: string) => {
    let shown = true;
    for (const m of mounts) if (isWithin(m.dest, p)) shown = m.shows;
    return shown;
  };
  const cover = (p: string) => {
    if (p === sep || !visible(p)) return;
    const k = kind(p);
    if (k === 'dir') args.push('--tmpfs', p);
    else if (k === 'other') args.push('--ro-bind', '/dev/null', p);
    else return;
    mounts.push({ dest: p, shows: false });
  };
  const show = (flag: '--ro-bind' | '--bind', p: string) => {
    if (!kind(p)) return;
    args.push(flag, p, p);
    mounts.push({ dest: p, shows: true });
  };

  for (const root of SHARED_ROOTS) cover(root);
  cover(view.home);
  for (const p of view.readPaths) show('--ro-bind', p);
  for (const p of view.hide) cover(p);
  show('--bind', view.runDir);
  for (const f of view.folders) show(f.writable ? '--bind' : '--ro-bind', f.path);

  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!view.network) args.push('--unshare-net');
  // Capabilities dropped: as root, the agent could otherwise unmount what covers the hidden paths.
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--chdir', view.runDir);
  return args;
}

/** A one-line description of a view, for the run log. */
export function describeView(view: ConfinementView): string {
  const folders = view.folders.map((f) => `${f.path} (${f.writable ? 'read-write' : 'read-only'})`);
  return [
    'the system read-only',
    `its run directory read-write`,
    folders.length > 0 ? `its folder ${folders.join(', ')}` : 'no folder',
    `network ${view.network ? 'open' : 'cut'}`,
    "your home directory, keyrings, session bus and Postdesk's data hidden",
  ].join('; ');
}
