import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { terminalConfirm } from '../../src-main/cli/web/terminal-confirm';

/**
 * `postdesk web` launched from a terminal: a page's change to what Postdesk runs waits for a "yes" typed
 * there. The terminal is a real stream pair (the edge), the host and its WebSocket are real.
 */

let host: TestWebHost;
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
  host = await startTestWebHost('postdesk-grants-tty-', {
    confirm: terminalConfirm({ input, output }, { timeoutMs: 1500 }),
  });
  page = host.page;
});
afterAll(() => host?.close());

describe('postdesk web from a terminal', () => {
  const agent = { agent_type: 'mine', command: '/usr/local/bin/my-agent', args: ['--fast', 'a b'] };

  it('asks in the terminal, shows the whole command, and saves only on a typed yes', async () => {
    const refused = page.bridge.settings.update({ agent_commands: [agent] });
    await answer('');
    expect(await refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(said).toContain(`Agent 'mine' runs: '/usr/local/bin/my-agent' '--fast' 'a b'`);

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
