/**
 * The terminal is a boundary too: service data printed for people must neither show a credential the
 * service echoed back nor drive the terminal. The sandbox is seeded with an account, an automation and
 * a skill whose names carry the API key and escape sequences (a title change `ESC ] 0 ; … BEL`, a
 * cursor move `ESC [ 1 A`, a carriage return); the real `postdesk` prints them, and a terminal's colours
 * (our own) still work.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Output } from '../../src-main/cli/output';
import { registerSecret } from '../../src-main/core/api/redact';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
const KEY = TEST_KEYS.a;
const EVIL = `\x1b]0;owned\x07\x1b[1A\x1b[2K\rfake prompt$ `;

let sb: TestSandbox;
const dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-scrub-'));

beforeAll(async () => {
  const fixture = demoFixture({ now: null });
  const owner = fixture.owners?.[0];
  if (!owner?.accounts?.[1] || !owner.automations?.[0] || !fixture.skills?.[0]) throw new Error('fixture');
  owner.accounts[1].name = `Shop ${KEY} ${EVIL}`;
  (owner.automations[0] as { name: string }).name = `Daily ${EVIL}`;
  const skill = fixture.skills[0];
  skill.description = `Writes ${EVIL} captions`;
  const [version] = skill.versions;
  if (version) version.markdown = `# Skill\n\nuse ${KEY} then ${EVIL}\n`;
  sb = await startTestSandbox(fixture);
});
afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function postdesk(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, '--base-url', sb.url, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        POSTDESK_DATA_DIR: dataDir,
        POSTDESK_API_KEY: KEY,
        POSTDESK_HTTP_RETRIES: '0',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** No byte that a terminal would act on, other than line breaks and tabs. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/;

describe('human output of service data', () => {
  it.each([
    ['accounts', ['accounts'], 'Shop [REDACTED]'],
    ['automations list', ['automations', 'list'], 'Daily \\x1b]0;owned'],
    ['skills list', ['skills', 'list'], 'Writes \\x1b]0;owned'],
    [
      'skills show',
      ['skills', 'show', 'test-skill', '--version', '1.0.0'],
      'use [REDACTED] then \\x1b]0;owned',
    ],
    [
      'skills show --markdown',
      ['skills', 'show', 'test-skill', '--version', '1.0.0', '--markdown'],
      'use [REDACTED]',
    ],
  ])('%s: the key is redacted and escape sequences are shown, not obeyed', async (_name, args, expected) => {
    const run = await postdesk(args);
    expect(run.code, run.stderr).toBe(0);
    const all = run.stdout + run.stderr;
    expect(all).not.toContain(KEY);
    expect(all).not.toMatch(CONTROL);
    expect(all).toContain(expected);
    expect(all).toContain('\\x07');
  });

  it('--json stays one document, scrubbed of the key, its control characters JSON-escaped', async () => {
    const run = await postdesk(['--json', 'accounts']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(KEY);
    expect(run.stdout).not.toMatch(CONTROL);
    const doc = JSON.parse(run.stdout) as { accounts: { id: string; name: string }[] };
    expect(doc.accounts.find((a) => a.id === IDS.accounts.instagram)?.name).toBe(`Shop [REDACTED] ${EVIL}`);
  });

  it('on a colour terminal our own colours stay and the data is still escaped', () => {
    registerSecret(KEY);
    let text = '';
    const stdout = Object.assign(
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          text += chunk.toString();
          cb();
        },
      }),
      { isTTY: true },
    );
    const out = new Output({ stdout, stderr: stdout, stdin: process.stdin, env: {} }, false);
    out.table(['name'], [[`Shop ${KEY} ${EVIL}`]]);
    out.fields([['name', EVIL]]);
    out.line(`${out.colors.green('✓')} ${EVIL} ${out.colors.red(EVIL)}`);
    out.note(`note ${EVIL}`);
    // Bold headers, green ticks: colour sequences (ESC [ n m) of our own only.
    expect(text).toContain('\x1b[1mname\x1b[22m');
    expect(text).toContain('\x1b[32m✓\x1b[39m');
    expect(text).not.toContain(KEY);
    // eslint-disable-next-line no-control-regex
    const left = text.replace(/\x1b\[\d+m/g, '');
    expect(left).not.toMatch(CONTROL);
    expect(left).toContain('\\x1b]0;owned\\x07\\x1b[1A\\x1b[2K\\rfake prompt$');
  });
});
