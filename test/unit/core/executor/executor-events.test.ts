import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createApiClient } from '../../../../src-main/core/api/client';
import { createBridgeEvents } from '../../../../src-main/core/bridge/events';
import { forwardExecutorEvents } from '../../../../src-main/core/bridge/executor-port';
import { silentLogger } from '../../../../src-main/core/common/logger';
import { Executor } from '../../../../src-main/core/executor/executor';
import {
  EXECUTOR_EVENTS,
  ExecutorEvents,
  subscribeExecutorEvents,
  type ExecutorEventHandlers,
  type ExecutorEventName,
  type ExecutorListeners,
} from '../../../../src-main/core/executor/executor-events';
import { openStore, type Store } from '../../../../src-main/core/store/store';

/**
 * The executor's events are declared once, in EXECUTOR_EVENTS: the emitters, the `Executor`'s listener getters and
 * the forwarding onto the bridge all come from it. The compiler holds the types to the table; the run-time checks
 * add a row and see it carried to every place without another edit.
 */

type Table = typeof EXECUTOR_EVENTS;
type Row = { readonly listener: string; readonly carries: unknown };
/** Adds a row to the table for one test, as an edit of the table would. */
async function withRow(name: string, row: Row, work: () => unknown): Promise<void> {
  const table = EXECUTOR_EVENTS as unknown as Record<string, Row>;
  table[name] = row;
  try {
    await work();
  } finally {
    delete table[name];
  }
}

let dir: string | undefined;
let store: Store | undefined;
afterEach(async () => {
  store?.close();
  store = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function makeExecutor(): Promise<Executor> {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-exevents-'));
  store = openStore(join(dir, 'store.db'));
  return new Executor({
    // Never called: the executor is not started.
    api: createApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k'.repeat(32) }),
    store,
    scope: 'test',
    dataDir: dir,
    name: 'test',
    agentType: 'command',
    agent: { command: process.execPath, args: ['agent.mjs'] },
    concurrency: 1,
    missedRunPolicy: 'latest',
    graceMs: 15 * 60_000,
  });
}

describe('the executor events table', () => {
  it('types: the getters, the handlers and the Executor all follow the table', () => {
    expectTypeOf<keyof ExecutorListeners>().toEqualTypeOf<Table[ExecutorEventName]['listener']>();
    expectTypeOf<keyof ExecutorEventHandlers>().toEqualTypeOf<ExecutorEventName>();
    expectTypeOf<Executor>().toMatchTypeOf<ExecutorListeners>();
    expectTypeOf<Parameters<ExecutorListeners['onDidFailRun']>[0]>()
      .parameter(0)
      .toEqualTypeOf<Table['failed']['carries']>();
    // A handler table missing a row does not compile.
    // @ts-expect-error `missed` is not handled
    const partial: ExecutorEventHandlers = {
      state: () => {},
      started: () => {},
      stepped: () => {},
      logged: () => {},
      finished: () => {},
      failed: () => {},
    };
    expect(Object.keys(partial)).not.toContain('missed');
  });

  it('every row is a getter of a real Executor, and what is fired reaches its listeners', async () => {
    const ex = await makeExecutor();
    const events = (ex as unknown as { events: ExecutorEvents }).events;
    for (const [name, { listener }] of Object.entries(EXECUTOR_EVENTS)) {
      const heard: unknown[] = [];
      const sub = (ex as unknown as Record<string, (l: (p: unknown) => void) => { dispose(): void }>)[
        listener
      ]!((p) => heard.push(p));
      events.fire(name as ExecutorEventName, { probe: name } as never);
      sub.dispose();
      events.fire(name as ExecutorEventName, { probe: 'after dispose' } as never);
      expect({ name, heard }).toEqual({ name, heard: [{ probe: name }] });
    }
  });

  it('a row added to the table is carried to the emitters, the getters and the subscription', async () => {
    await withRow('probed', { listener: 'onDidProbe', carries: undefined }, () => {
      const events = new ExecutorEvents(silentLogger);
      const listeners = events.listeners() as unknown as Record<string, unknown>;
      expect(Object.keys(listeners).sort()).toEqual(
        Object.values(EXECUTOR_EVENTS)
          .map((r) => r.listener)
          .sort(),
      );
      const heard: string[] = [];
      const handlers = Object.fromEntries(
        Object.keys(EXECUTOR_EVENTS).map((n) => [n, (p: unknown) => heard.push(`${n}:${String(p)}`)]),
      ) as unknown as ExecutorEventHandlers;
      const sub = subscribeExecutorEvents(events.listeners(), handlers);
      events.fire('probed' as ExecutorEventName, 'x' as never);
      events.fire('state', 'y' as never);
      sub.dispose();
      events.fire('probed' as ExecutorEventName, 'z' as never);
      expect(heard).toEqual(['probed:x', 'state:y']);
    });
  });

  it('a row added to the table is a getter of every new Executor', async () => {
    await withRow('probed', { listener: 'onDidProbe', carries: undefined }, async () => {
      const ex = (await makeExecutor()) as unknown as Record<string, unknown>;
      expect(typeof ex.onDidProbe).toBe('function');
    });
  });

  it('the bridge forwards every event of the table (runs and status channels)', async () => {
    const ex = await makeExecutor();
    const bridge = createBridgeEvents(silentLogger);
    const emitted: string[] = [];
    bridge.subscribe((channel) => {
      emitted.push(channel);
      return false;
    });
    const fwd = forwardExecutorEvents(ex, bridge);
    const events = (ex as unknown as { events: ExecutorEvents }).events;
    events.fire('state', ex.status());
    events.fire('stepped', {
      localId: 'r',
      automationId: 'a',
      stepId: 's',
      status: 'running',
      message: '',
      at: new Date(0).toISOString(),
      source: 'executor',
    } as never);
    events.fire('logged', {
      localId: 'r',
      at: new Date(0).toISOString(),
      stream: 'stdout',
      text: 't',
    } as never);
    fwd.dispose();
    events.fire('state', ex.status());
    expect(emitted).toEqual(['executor:didChangeStatus', 'runs:didStepRun', 'runs:didLog']);
  });
});
