import { spawn } from 'node:child_process';

/** The opener of each OS, run with an argument array: never a shell string. */
function openerFor(platform: string): { command: string; args: (url: string) => string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: (u) => [u] };
  if (platform === 'win32') return { command: 'explorer.exe', args: (u) => [u] };
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    return { command: 'xdg-open', args: (u) => [u] };
  }
  return null;
}

/**
 * Best effort: opens an http(s) URL in the user's browser. Returns false when it could not try
 * (no opener, no display); a failure to start the opener is ignored, the URL is printed anyway.
 */
export function openInBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: string = process.platform,
): boolean {
  if (!/^https?:\/\//.test(url)) return false;
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  const opener = openerFor(platform);
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args(url), { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
