import type { ConfinementView } from './view';

/** The keychain is reached through these services, not its files: denying the files alone is not enough. */
const KEYCHAIN_SERVICES = [
  'com.apple.SecurityServer',
  'com.apple.securityd',
  'com.apple.securityd.xpc',
  'com.apple.secd',
  'com.apple.security.agent',
];

/** A path as an SBPL string literal. Control characters have no place in a path Postdesk confines to. */
export function sbplString(p: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p))
    throw new Error(`a path with a control character cannot be confined: ${JSON.stringify(p)}`);
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

/**
 * The sandbox-exec (Seatbelt) profile of a view: the same file rules as bubblewrap's. In SBPL the last
 * matching rule wins, so the profile reads from the widest rule to the narrowest: everything allowed,
 * all writes and the home directory denied, the program's paths allowed back for reading, the hidden
 * paths denied again, and last the run directory and folders.
 */
export function seatbeltProfile(view: ConfinementView): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/"))',
    `(deny file-read* file-write* (subpath ${sbplString(view.home)}) (subpath "/private/tmp") (subpath "/private/var/tmp") (subpath "/Volumes"))`,
  ];
  if (view.readPaths.length > 0) lines.push(`(allow file-read* ${subpaths(view.readPaths)})`);
  if (view.hide.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(view.hide)})`);
  lines.push(
    `(deny mach-lookup ${KEYCHAIN_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(' ')})`,
    // Other processes' arguments and environment: the executor's among them.
    '(deny process-info*)',
    '(allow process-info* (target self))',
    `(allow file-read* file-write* ${subpaths([view.runDir])})`,
  );
  const ro = view.folders.filter((f) => !f.writable).map((f) => f.path);
  const rw = view.folders.filter((f) => f.writable).map((f) => f.path);
  if (ro.length > 0) lines.push(`(allow file-read* ${subpaths(ro)})`);
  if (rw.length > 0) lines.push(`(allow file-read* file-write* ${subpaths(rw)})`);
  if (!view.network) lines.push('(deny network*)');
  return `${lines.join('\n')}\n`;
}

/** sandbox-exec's arguments before the agent's command: the profile inline, so no file can be swapped. */
export function sandboxExecArgs(view: ConfinementView): string[] {
  return ['-p', seatbeltProfile(view)];
}
