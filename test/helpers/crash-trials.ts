/**
 * What the crash tests share (cli-shift-crash, cli-update-delete-crash, cli-posts-retry, web-host-many-lost): a
 * sandbox for the file, answers the service commits and then loses, a CLI run killed with SIGKILL at a chosen or
 * seeded point, and the person who runs the command again until it reports. Each test keeps its own assertions;
 * only the setup lives here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import type { CliRun } from './cli-process';
import { startTestSandbox, type Fixture, type TestSandbox } from './sandbox';

export type Ended = Awaited<CliRun['done']>;

/** One sandbox for the file's trials, started before its tests and closed after. Read `.sb` inside a test. */
export function sandboxForTrials(fixture?: Fixture): { readonly sb: TestSandbox } {
  let sb: TestSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox(fixture);
  });
  afterAll(() => sb?.close());
  return {
    get sb(): TestSandbox {
      if (!sb) throw new Error('the trials sandbox is read before beforeAll started it');
      return sb;
    },
  };
}

/** A small seeded generator: the same kill points on every run of the test. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The service commits what it is sent on `paths` and then, at `rate`, drops the connection before any answer byte
 * (`reset_rate`), each answer `latencyMs` late (so a kill lands while one is in flight). `seed` makes the sequence
 * repeatable. `loseAnswers(sb, null)` turns every fault off.
 */
export async function loseAnswers(
  sb: TestSandbox,
  o: { paths: readonly string[]; rate: number; seed: number; latencyMs?: number } | null,
): Promise<void> {
  await sb.control.faults(
    o
      ? {
          reset_rate: o.rate,
          paths: [...o.paths],
          seed: o.seed,
          ...(o.latencyMs === undefined ? {} : { latency_ms: o.latencyMs }),
        }
      : {},
  );
}

/** A fresh data directory for one trial's CLI runs (its own outbox), removed when `trial` ends, however it ends. */
export async function inDataDir<T>(prefix: string, trial: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await trial(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** How many changes the outbox of `dataDir` holds open: recorded and sent, their answer never heard. */
export function openChanges(dataDir: string): number {
  const store = openStore(storeFile(dataDir));
  try {
    return (
      store.db.prepare(`SELECT COUNT(*) AS n FROM outbox_changes WHERE state = 'open'`).get() as { n: number }
    ).n;
  } finally {
    store.close();
  }
}

/**
 * Kills `run` with SIGKILL, unless it exits first: `{ whenApplied }` the moment the service shows the change
 * applied (its answer is still on its way, or lost), polled every 10 ms; `{ afterMs }` at that point, wherever the
 * run is (before the change is recorded, while it is sent, or after). Resolves with how the run ended.
 */
export async function killRun(
  run: CliRun,
  at: { readonly whenApplied: () => Promise<boolean> } | { readonly afterMs: number },
): Promise<Ended> {
  let exited = false;
  void run.done.then(() => (exited = true));
  if ('whenApplied' in at) {
    while (!exited && !(await at.whenApplied())) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGKILL');
  } else {
    const timer = setTimeout(() => run.child.kill('SIGKILL'), at.afterMs);
    void run.done.then(() => clearTimeout(timer));
  }
  return run.done;
}

/**
 * Runs the command again, as a person would, while `settled(last)` is false (or there is no report yet, after a
 * kill), at most `times` more runs. `again` runs the command once and asserts what every run must hold. Answers
 * the last report.
 */
export async function runAgainUntil<R>(
  first: R | null,
  again: () => Promise<R>,
  settled: (report: R) => boolean,
  times: number,
): Promise<R | null> {
  let report = first;
  for (let i = 0; i < times && (report === null || !settled(report)); i++) report = await again();
  return report;
}
