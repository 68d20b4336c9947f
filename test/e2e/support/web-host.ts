import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_PATH } from '../../../src-shared/ipc/ws-protocol';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A running `postdesk web --sandbox`, as the tests drive it: the page address and the sandbox behind it. */
export interface WebHost {
  /**
   * A link the host printed and no page has used yet. Each link carries a one-time code and opens one
   * page (a fresh browser context needs a fresh one), within LINK_TTL_MS of being printed; after a link is
   * used, or refused as expired, the host prints the next.
   */
  nextUrl(): Promise<string>;
  readonly origin: string;
  readonly sandboxUrl: string;
  /** The sandbox's published demo key (not a credential). */
  readonly apiKey: string;
  /** The host's data directory (its store and the sandbox's), for a second process such as `postdesk mcp`. */
  readonly dataDir: string;
  /**
   * Runs `postdesk <args>` on this host's data directory, as the user would in a terminal: how settings
   * the page may not change by itself (agent commands, folders) are made.
   */
  cli(args: readonly string[]): Promise<string>;
  stop(): Promise<void>;
}

const STARTUP_MS = 45_000;
/** A printed link older than this is spent rather than handed out: it expires after LINK_TTL_MS (2 minutes). */
const LINK_FRESH_MS = 60_000;

/** Trades a link's code the way its page would, so the host prints the next link. */
async function spend(link: string): Promise<void> {
  const { origin, hash } = new URL(link);
  const code = new URLSearchParams(hash.slice(1)).get('code') ?? '';
  await fetch(`${origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code }),
  }).catch(() => undefined);
}

/**
 * Spawns the real CLI (`node bin/postdesk.js web --sandbox --data DIR --port 0 --no-open`) with a temporary
 * data directory and reads the addresses it prints. No shell: arguments go straight to node. Its stdin is
 * not a terminal, so a change the page asks to what Postdesk runs is refused, as it is for any such host.
 */
export async function startWebHost(opts: { readonly dataDir?: string } = {}): Promise<WebHost> {
  // A flow may hand over a data directory it prepared (a sandbox store seeded with a fixture); it is removed on stop.
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'postdesk-e2e-')));
  const env = { ...process.env, POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1' };
  const child = spawn(
    process.execPath,
    ['bin/postdesk.js', 'web', '--sandbox', '--data', dataDir, '--port', '0', '--no-open'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  const handedOut = new Set<string>();
  const printedLinks = () => [...out.matchAll(/^open: (\S+)$/gm)].map((m) => m[1] as string);
  /** When each link was first seen printed: one printed long ago has expired (or soon will). */
  const seenAt = new Map<string, number>();
  const noteLinks = () => {
    for (const l of printedLinks()) if (!seenAt.has(l)) seenAt.set(l, Date.now());
  };
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const printed = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`postdesk web did not start in time:\n${out}\n${err}`)),
      STARTUP_MS,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`postdesk web exited (${code}) before printing its address:\n${out}\n${err}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      noteLinks();
      const get = (re: RegExp) => re.exec(out)?.[1];
      const url = get(/^open: (\S+)$/m);
      const sandboxUrl = get(/^sandbox listening on (\S+)$/m);
      const apiKey = get(/^api key: (\S+)$/m);
      if (url && sandboxUrl && apiKey) {
        clearTimeout(timer);
        resolve({ url, sandboxUrl, apiKey });
      }
    });
  });

  const url = printed.url as string;
  return {
    async nextUrl() {
      const until = Date.now() + 10_000;
      for (;;) {
        noteLinks();
        const fresh = printedLinks().find((l) => !handedOut.has(l));
        if (fresh && Date.now() - (seenAt.get(fresh) ?? 0) > LINK_FRESH_MS) {
          // Printed too long ago for a page to trade in time: spend it, as a late click would, and the
          // host prints the next one.
          handedOut.add(fresh);
          await spend(fresh);
          continue;
        }
        if (fresh) {
          handedOut.add(fresh);
          return fresh;
        }
        if (Date.now() > until) throw new Error(`postdesk web printed no fresh link:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    origin: new URL(url).origin,
    sandboxUrl: printed.sandboxUrl as string,
    apiKey: printed.apiKey as string,
    dataDir,
    async cli(args) {
      const { stdout } = await promisify(execFile)(process.execPath, ['bin/postdesk.js', ...args], {
        cwd: ROOT,
        env,
      });
      return stdout;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A call to the sandbox's own HTTP API with the demo key: how a test checks what really happened. */
export async function sandboxApi<T>(host: WebHost, path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(new URL(path, host.sandboxUrl), {
    ...init,
    headers: { authorization: `Bearer ${host.apiKey}`, 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
