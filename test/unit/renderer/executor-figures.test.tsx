// @vitest-environment jsdom
/**
 * Settings → Executor activity: the figures the daemon serves to monitoring tools, for a person. The bridge
 * is the edge: it answers `executor:metrics` as the hosts do (the figures of the running executor, or null).
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutorMetrics, PostdeskBridge } from '../../../src-shared/ipc';
import { ExecutorFiguresCard } from '../../../src-renderer/src/features/settings/ExecutorFiguresCard';
import { useExecutorStore } from '../../../src-renderer/src/stores/use-executor-store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FIGURES: ExecutorMetrics = {
  last_sync_at: new Date(Date.now() - 30_000).toISOString(),
  healthy: true,
  running_agents: 1,
  start_delay: {
    count: 4,
    mean_seconds: 0.4,
    buckets: [
      { le_seconds: 0.5, count: 2 },
      { le_seconds: 1, count: 3 },
      { le_seconds: 60, count: 4 },
    ],
  },
  automations: [
    { automation_id: 'a1', name: 'Hourly tip clip', started: 4, completed: 2, failed: 1, missed: 3 },
  ],
};

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  useExecutorStore.setState({ metrics: { data: null, loading: false, error: null, fetchedAt: null } });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  delete window.postdesk;
});

async function show(answer: ExecutorMetrics | null) {
  window.postdesk = {
    host: 'electron',
    executor: { metrics: async () => ({ ok: true as const, value: answer }) },
  } as unknown as PostdeskBridge;
  await act(async () => root.render(<ExecutorFiguresCard />));
  await act(async () => undefined);
}

const fact = (label: string) =>
  [...container.querySelectorAll('dt')].find((d) => d.textContent === label)?.nextElementSibling
    ?.textContent ?? null;

describe('the executor activity card', () => {
  it('shows the last sync, the agents running, the start delay and the runs of each automation', async () => {
    await show(FIGURES);
    expect(container.textContent).toContain('in sync');
    expect(fact('Last sync')).toMatch(/ago|now/);
    expect(fact('Agents running')).toBe('1');
    expect(fact('Started on time')).toBe(
      '3 of 4 runs within a second of the schedule · under a second late on average',
    );
    const cells = [...container.querySelectorAll('tbody tr > *')].map((c) => c.textContent);
    expect(cells).toEqual(['Hourly tip clip', '4', '2', '1', '3']);
  });

  it('says when the service has not answered recently', async () => {
    await show({ ...FIGURES, healthy: false, last_sync_at: new Date(Date.now() - 600_000).toISOString() });
    expect(container.textContent).toContain('not in sync');
    expect(fact('Last sync')).toContain('the service has not answered recently');
  });

  it('without a running executor, says there is nothing to report', async () => {
    await show(null);
    expect(container.textContent).toContain('The executor is not running, so it has nothing to report yet.');
    expect(container.querySelector('table')).toBeNull();
  });
});
