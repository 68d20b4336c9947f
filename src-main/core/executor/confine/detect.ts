import { execFile } from 'node:child_process';
import { resolveCommand } from './view';
import { pathExistsSync } from '../../files';

export type Confiner =
  | { readonly kind: 'bubblewrap'; readonly path: string }
  | { readonly kind: 'sandbox-exec'; readonly path: string }
  | { readonly kind: 'none'; readonly reason: string };

/** The arguments of the probe: the namespaces and mounts every confined run uses, around `true`. */
const PROBE = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--unshare-pid',
  '--die-with-parent',
  '--cap-drop',
  'ALL',
  '--',
  'true',
];

const probes = new Map<string, Promise<string | null>>();

/**
 * Whether bubblewrap can make a sandbox here, once per binary: it may be installed where user namespaces
 * are not allowed (some containers, some distributions' defaults). Null when it can, else why not.
 */
function probeBubblewrap(path: string): Promise<string | null> {
  let probe = probes.get(path);
  if (!probe) {
    probe = new Promise((resolve) => {
      execFile(path, PROBE, { timeout: 10_000 }, (err, _stdout, stderr) => {
        if (!err) return resolve(null);
        const why = String(stderr).trim().split('\n')[0] || err.message;
        resolve(`bubblewrap is installed but cannot make a sandbox on this machine (${why})`);
      });
    });
    probes.set(path, probe);
  }
  return probe;
}

/** The confiner this machine offers: bubblewrap on Linux, sandbox-exec on macOS, none elsewhere. */
export async function detectConfiner(
  o: { readonly platform?: NodeJS.Platform; readonly searchPath?: string } = {},
): Promise<Confiner> {
  const platform = o.platform ?? process.platform;
  if (platform === 'linux') {
    const path = resolveCommand('bwrap', o.searchPath ?? process.env.PATH ?? '');
    if (!path) return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };
    const problem = await probeBubblewrap(path);
    return problem ? { kind: 'none', reason: problem } : { kind: 'bubblewrap', path };
  }
  if (platform === 'darwin') {
    const path = '/usr/bin/sandbox-exec';
    return pathExistsSync(path)
      ? { kind: 'sandbox-exec', path }
      : { kind: 'none', reason: 'sandbox-exec is missing from this Mac' };
  }
  return {
    kind: 'none',
    reason: `no confiner is available on ${platform === 'win32' ? 'Windows' : platform}`,
  };
}
