import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunLogEvent as BridgeRunLog } from '../../src-shared/ipc/runs';
import { forwardExecutorEvents } from '../../src-main/core/bridge/executor-port';
import { createBridgeEvents } from '../../src-main/core/bridge/events';
import { startHarness, type Harness } from './executor-harness';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// Prints to both streams, then holds until the test drops a `go` file into its run directory (its cwd),
// so the log lines must have arrived while it was still running. Its one argument is the API key: a
// careless agent config could hand it over, and the live log must still never show it.
const AGENT = `
const fs = require('node:fs');
console.log('::step think started');
console.log('working on it');
console.error('saw ' + process.argv[1]);
const t = setInterval(() => {
  if (!fs.existsSync('go')) return;
  clearInterval(t);
  console.log('bye');
  process.exit(3);
}, 20);
`;

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('executor live run log', () => {
  it('streams each run.log line (steps, stdout, stderr) as events while the agent runs, redacted', async () => {
    h = await startHarness();
    const secret = h.sb.apiKey;
    const { executor: ex } = h.another({ agent: { command: process.execPath, args: ['-e', AGENT, secret] } });
    const bridge = createBridgeEvents();
    const forwarded: BridgeRunLog[] = [];
    bridge.subscribe((channel, payload) => {
      if (channel === 'runs:didLog') forwarded.push(payload as BridgeRunLog);
    });
    const forward = forwardExecutorEvents(ex, bridge);
    const seen: { localId: string; stream: string; text: string }[] = [];
    ex.onDidLogRun((e) => seen.push({ localId: e.localId, stream: e.stream, text: e.text }));

    await ex.runOnce();
    await h.advance(HOUR);
    const pass = ex.runOnce();

    await until('the agent stderr line', () => seen.some((l) => l.stream === 'stderr'));
    const localId = seen[0]?.localId as string;
    const row = ex.journal.get(localId);
    // The agent is still running: it has not been told to go, and the run has not left the agent step.
    expect(row?.step).toBe('agent');
    expect(ex.status().activeRuns).toBe(1);
    expect(seen).toEqual(
      expect.arrayContaining([
        { localId, stream: 'system', text: 'step prepare started' },
        { localId, stream: 'system', text: 'step agent started' },
        { localId, stream: 'stdout', text: '::step think started' },
        { localId, stream: 'stdout', text: 'working on it' },
        { localId, stream: 'stderr', text: 'saw [REDACTED]' },
      ]),
    );

    await writeFile(join(row?.run_dir as string, 'go'), '');
    await pass;
    forward.dispose();

    expect(seen.some((l) => l.stream === 'stdout' && l.text === 'bye')).toBe(true);
    expect(
      seen.some(
        (l) => l.stream === 'system' && l.text.startsWith('step agent failed: agent exited with code 3'),
      ),
    ).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(secret);
    // Every live line is also in the file.
    expect(readFileSync(join(row?.run_dir as string, 'run.log'), 'utf8')).toMatch(/Z stdout working on it/);

    // The bridge gets every line under the run's id, in the shared contract's shape.
    expect(forwarded.length).toBe(seen.length);
    expect(forwarded.every((f) => f.run_id === localId)).toBe(true);
    expect(forwarded.map((f) => f.line.text)).toEqual(seen.map((l) => l.text));
    expect(forwarded[0]?.line.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
