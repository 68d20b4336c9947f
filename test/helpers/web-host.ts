/**
 * Starts a real `postdesk web` (no executor) on a free port, with its data in a fresh temporary
 * folder, and opens one page's bridge to it over a real WebSocket, as the renderer would.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import {
  createWsBridge,
  tradeLaunchCode,
  type WebSocketLike,
  type WsBridge,
} from '../../src-shared/ipc/ws-client';
import { readLaunchCode } from '../../src-shared/ipc/ws-protocol';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { startWeb, type RunningWeb } from '../../src-main/cli/web/run-web';

export interface TestWebHost {
  readonly web: RunningWeb;
  /** The temporary folder: the app's data in `data/`, the page's files in `static/`, room for a test's own. */
  readonly dir: string;
  readonly page: WsBridge;
  /** The page's session secret, for requests a test makes beside the bridge. */
  readonly token: string;
  /** What the host printed, as the user's terminal would show it. */
  readonly printed: readonly string[];
  close(): Promise<void>;
}

/** The last `open: <link>` line `postdesk web` printed. */
export function printedLink(lines: readonly string[]): string {
  const link = lines.flatMap((l) => /^open: (\S+)$/.exec(l)?.[1] ?? []).at(-1);
  if (!link) throw new Error(`postdesk web printed no link:\n${lines.join('\n')}`);
  return link;
}

/** What the page does with a link: trades its one-time code for the session secret. */
export async function sessionSecretFor(link: string): Promise<string> {
  const { origin, hash } = new URL(link);
  const code = readLaunchCode(hash);
  const token = code ? await tradeLaunchCode(origin, code) : null;
  if (!token) throw new Error(`the host refused the code of ${link}`);
  return token;
}

/**
 * `prefix` names the temporary folder, so a leftover one says which test made it. `options` replace the
 * defaults (no executor, nothing confirmed), as `postdesk web` would be started otherwise.
 */
export async function startTestWebHost(
  prefix: string,
  options: Partial<Parameters<typeof startWeb>[0]> = {},
): Promise<TestWebHost> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  let web: RunningWeb;
  const lines: string[] = [];
  try {
    await mkdir(join(dir, 'static'));
    await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>Postdesk</title>');
    web = await startWeb({
      sandbox: true,
      executor: false,
      dataDir: join(dir, 'data'),
      port: 0,
      open: false,
      env: {},
      version: 'test',
      startSandbox: startSandboxInProcess,
      staticDir: join(dir, 'static'),
      print: (l) => void lines.push(l),
      ...options,
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const secret = await sessionSecretFor(printedLink(lines)).catch(async (err: unknown) => {
    await web.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  const page = createWsBridge({
    origin: web.host.origin,
    token: secret,
    openSocket: (url) => new WebSocket(url, { origin: web.host.origin }) as unknown as WebSocketLike,
  });
  return {
    web,
    dir,
    page,
    token: secret,
    printed: lines,
    async close() {
      page.close();
      await web.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
