/**
 * The cost of confinement (`npm run bench -- executor`): real milliseconds from asking for an agent to its
 * exit, for a trivial agent (`true`, and `node -e ''`), confined with bubblewrap and unconfined, in the same run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAgent } from '../src-main/core/executor/agent-runner';
import { RunLog } from '../src-main/core/executor/run-log';
import { detectConfiner } from '../src-main/core/executor/confine/detect';
import type { ConfinementSource } from '../src-main/core/executor/confine/launch';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timeAgent(
  command: { command: string; args: string[] },
  confinement: ConfinementSource | undefined,
  samples: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const runDir = await mkdtemp(join(tmpdir(), 'bench-confine-'));
    const log = RunLog.open(tmpdir(), runDir);
    try {
      const started = performance.now();
      const exit = await processAgent(
        command,
        confinement,
      )({
        runDir,
        outputFile: join(runDir, 'output.json'),
        taskFile: join(runDir, 'task.md'),
        runJsonFile: join(runDir, 'run.json'),
        log,
        runId: `bench-${i}`,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
        secrets: [],
        onStep: () => undefined,
        onSpawn: () => undefined,
      });
      if (exit.kind !== 'exited' || exit.code !== 0)
        throw new Error(`the agent did not exit 0: ${JSON.stringify(exit)}`);
      out.push(performance.now() - started);
    } finally {
      log.close();
      await rm(runDir, { recursive: true, force: true });
    }
  }
  return out;
}

export async function benchConfinement(samples = 15): Promise<void> {
  const confiner = await detectConfiner();
  if (confiner.kind === 'none') {
    console.log(`confinement cost: skipped (${confiner.reason})`);
    return;
  }
  const confined: ConfinementSource = () => ({
    mode: 'required',
    network: true,
    readPaths: [],
    hide: [],
    folderWritable: false,
  });
  for (const agent of [
    { label: '`true`', command: { command: 'true', args: [] } },
    { label: "`node -e ''`", command: { command: process.execPath, args: ['-e', ''] } },
  ]) {
    // Alternated, so that a busy moment of the machine weighs on both sides alike.
    const plain: number[] = [];
    const boxed: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      plain.push(...(await timeAgent(agent.command, undefined, 1)));
      boxed.push(...(await timeAgent(agent.command, confined, 1)));
    }
    const [p, b] = [median(plain), median(boxed)];
    console.log(
      `agent start to exit, ${agent.label}, ${samples} runs each: confined (${confiner.kind}) p50 ${b.toFixed(1)} ms ` +
        `(+${(b - p).toFixed(1)} ms) | baseline unconfined p50 ${p.toFixed(1)} ms`,
    );
  }
}
