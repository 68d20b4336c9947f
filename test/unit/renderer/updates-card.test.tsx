// @vitest-environment jsdom
/**
 * The Settings update card in each state the desktop updater reports: the download's progress, the
 * release notes of the new version (through the same Markdown component as articles), and when the
 * update installs. The bridge is the edge: it answers `updates:*` as the desktop host does and
 * delivers `updates:didChangeUpdateState` events.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostdeskBridge, UpdateState } from '../../../src-shared/ipc';
import { UpdatesCard } from '../../../src-renderer/src/features/settings/UpdatesCard';
import { useUpdatesStore } from '../../../src-renderer/src/stores/use-updates-store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base: UpdateState = {
  phase: 'up-to-date',
  channel: 'stable',
  currentVersion: '0.1.0',
  availableVersion: null,
  releaseNotes: null,
  progress: null,
  waitingFor: null,
  restartRequested: false,
  error: null,
  lastCheckedAt: '2030-01-01T10:00:00.000Z',
};

const NOTES = [
  '## Fixes',
  '',
  '- Drag & drop keeps the **time**',
  '- See [the guide](https://postdesk.app/guide)',
  '',
  '<img src="x" onerror="window.__hacked = 1">',
].join('\n');

function installBridge(initial: UpdateState) {
  let state = initial;
  const listeners = new Set<(s: UpdateState) => void>();
  const calls: string[] = [];
  const updates = {
    state: async () => ({ ok: true as const, value: state }),
    check: async () => {
      calls.push('check');
      return { ok: true as const, value: state };
    },
    restartNow: async () => {
      calls.push('restartNow');
      state = { ...state, restartRequested: true };
      return { ok: true as const, value: state };
    },
    onDidChangeUpdateState: (listener: (s: UpdateState) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  window.postdesk = { host: 'electron', updates } as unknown as PostdeskBridge;
  return {
    calls,
    push: (next: UpdateState) =>
      act(() => {
        state = next;
        for (const l of listeners) l(next);
      }),
  };
}

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  useUpdatesStore.setState({
    state: { data: null, loading: false, error: null, fetchedAt: null },
    busy: null,
    actionError: null,
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  delete window.postdesk;
});

async function show(state: UpdateState) {
  const bridge = installBridge(state);
  await act(async () => root.render(<UpdatesCard settings={null} />));
  await act(async () => undefined);
  return bridge;
}

/** The value of a fact ("This version", "Installs", …) in the card's list, or null without one. */
function fact(label: string): string | null {
  const dt = [...container.querySelectorAll('dt')].find((d) => d.textContent === label);
  return dt?.nextElementSibling?.textContent ?? null;
}
const restartButton = () =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === 'Restart now') as HTMLButtonElement;
const notes = () => container.querySelector('[aria-label^="Release notes for"]');

describe('the update card', () => {
  it('while downloading: the progress, and the new version’s notes rendered as Markdown without HTML', async () => {
    const bridge = await show({
      ...base,
      phase: 'downloading',
      availableVersion: '0.2.0',
      releaseNotes: NOTES,
      progress: { percent: 42, transferred: 4_404_019, total: 10_485_760, bytesPerSecond: 1_048_576 },
    });
    const bar = container.querySelector('[role="progressbar"]');
    expect(bar?.getAttribute('aria-label')).toBe('Downloading 0.2.0');
    expect(bar?.getAttribute('aria-valuenow')).toBe('42');
    expect(container.textContent).toContain('42% · 4.2 MiB of 10 MiB · 1 MiB/s');

    expect(container.querySelector('#updates-notes-title')?.textContent).toBe('What’s new in 0.2.0');
    expect(notes()?.getAttribute('aria-label')).toBe('Release notes for 0.2.0');
    expect(notes()?.querySelector('h2')?.textContent).toBe('Fixes');
    expect([...(notes()?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'Drag & drop keeps the time',
      'See the guide',
    ]);
    expect(notes()?.querySelector('strong')?.textContent).toBe('time');
    expect(notes()?.querySelector('a')?.getAttribute('href')).toBe('https://postdesk.app/guide');
    // The notes come over the network: their HTML never becomes elements.
    expect(notes()?.querySelector('img')).toBeNull();
    expect((window as { __hacked?: number }).__hacked).toBeUndefined();
    expect(fact('Installs')).toBeNull();
    expect(restartButton().disabled).toBe(true);

    // The download moves on through the bridge's event.
    await bridge.push({
      ...base,
      phase: 'downloading',
      availableVersion: '0.2.0',
      releaseNotes: NOTES,
      progress: { percent: 80, transferred: 8_388_608, total: 10_485_760, bytesPerSecond: 0 },
    });
    expect(container.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('80');
    expect(container.textContent).toContain('80% · 8 MiB of 10 MiB');
  });

  it('downloaded: installs at the next quit, and Restart now asks for it now', async () => {
    const bridge = await show({
      ...base,
      phase: 'downloaded',
      availableVersion: '0.2.0',
      releaseNotes: NOTES,
    });
    expect(fact('New version')).toBe('0.2.0');
    expect(fact('Installs')).toBe('At next quit, or now with Restart now');
    expect(container.querySelector('[role="progressbar"]')).toBeNull();
    expect(notes()).not.toBeNull();
    expect(restartButton().disabled).toBe(false);
    await act(async () => restartButton().click());
    expect(bridge.calls).toEqual(['restartNow']);
    expect(restartButton().disabled).toBe(true);
  });

  it.each([
    [{ activeRuns: 2, activeUploads: 0 }, 'After the 2 runs in progress finish'],
    [{ activeRuns: 1, activeUploads: 0 }, 'After the 1 run in progress finishes'],
    [{ activeRuns: 0, activeUploads: 1 }, 'After the 1 upload in progress finishes'],
    [{ activeRuns: 2, activeUploads: 1 }, 'After the 2 runs and 1 upload in progress finish'],
  ])('restart requested while work runs (%o): "%s"', async (waitingFor, words) => {
    await show({
      ...base,
      phase: 'waiting-for-idle',
      availableVersion: '0.2.0',
      restartRequested: true,
      waitingFor,
    });
    expect(fact('Installs')).toBe(words);
    expect(restartButton().disabled).toBe(true);
    expect(container.textContent).toContain('Restart requested');
  });

  it('installing, up to date, and a release without notes', async () => {
    const bridge = await show({ ...base, phase: 'installing', availableVersion: '0.2.0' });
    expect(fact('Installs')).toBe('Now: Postdesk restarts in a moment');
    expect(notes()).toBeNull();

    await bridge.push({ ...base });
    expect(fact('Installs')).toBeNull();
    expect(fact('New version')).toBeNull();
    expect(notes()).toBeNull();
    expect(container.querySelector('[role="progressbar"]')).toBeNull();
    expect(container.textContent).toContain('You have the latest version.');
  });
});
