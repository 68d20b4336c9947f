import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createWsBridge, type WebSocketLike, type WsBridge } from '../../src-shared/ipc/ws-client';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { startWeb, type RunningWeb } from '../../src-main/cli/web/run-web';
import { printedLink, sessionSecretFor } from '../helpers/web-host';
import { terminalConfirm } from '../../src-main/cli/web/terminal-confirm';

/**
 * `postdesk web` launched from a terminal: a page's change to what Postdesk runs waits for a "yes" typed
 * there. The terminal is a real stream pair (the edge), the host and its WebSocket are real.
 */

let dir: string;
let web: RunningWeb;
const printed: string[] = [];
let page: WsBridge;
const input = Object.assign(new PassThrough(), { isTTY: true });
const output = new PassThrough();
let said = '';
output.on('data', (d: Buffer) => (said += d.toString()));

/** Resolves once the terminal shows the question, then types the answer. */
async function answer(line: string): Promise<void> {
  for (let i = 0; i < 200 && !said.includes('Type "yes"'); i++) await new Promise((r) => setTimeout(r, 10));
  said = said.replace('Type "yes"', 'Typed');
  input.write(`${line}\n`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-grants-tty-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Postdesk</title>');
  web = await startWeb({
    sandbox: true,
    executor: false,
    dataDir: join(dir, 'data'),
    port: 0,
    open: false,
    env: {},
    version: 'test',
    startSandbox: startSandboxInProcess,
    staticDir: dir,
    print: (l) => void printed.push(l),
    confirm: terminalConfirm({ input, output }, { timeoutMs: 1500 }),
  });
  const secret = await sessionSecretFor(printedLink(printed));
  page = createWsBridge({
    origin: web.host.origin,
    token: secret,
    openSocket: (url) => new WebSocket(url, { origin: web.host.origin }) as unknown as WebSocketLike,
  });
});
afterAll(async () => {
  page?.close();
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('postdesk web from a terminal', () => {
  const agent = { agent_type: 'mine', command: '/usr/local/bin/my-agent', args: ['--fast', 'a b'] };

  it('asks in the terminal, shows the whole command, and saves only on a typed yes', async () => {
    const refused = page.bridge.settings.update({ agent_commands: [agent] });
    await answer('');
    expect(await refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(said).toContain(`Agent "mine" runs: /usr/local/bin/my-agent --fast 'a b'`);

    const allowed = page.bridge.settings.update({ agent_commands: [agent] });
    await answer('yes');
    expect(await allowed).toMatchObject({ ok: true, value: { agent_commands: [agent] } });
    const now = await page.bridge.settings.get();
    expect(now.ok && now.value.agent_commands).toEqual([agent]);
  });

  it('refuses when nobody answers in time, and a second ask while one waits', async () => {
    const first = page.bridge.settings.update({ ffmpeg_path: '/opt/ffmpeg/bin/ffmpeg' });
    const second = await page.bridge.settings.update({ ffprobe_path: '/opt/ffmpeg/bin/ffprobe' });
    expect(second).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(!second.ok && second.error.message).toMatch(/waiting for your confirmation/);
    const timedOut = await first;
    expect(timedOut).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(!timedOut.ok && timedOut.error.message).toMatch(/in time/);
    const now = await page.bridge.settings.get();
    expect(now.ok && now.value.ffmpeg_path).toBeNull();
  });
});
