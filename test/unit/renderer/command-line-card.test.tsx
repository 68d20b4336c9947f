// @vitest-environment jsdom
/**
 * The Settings card of the `postdesk` command, over main's real `commandLine:*` handlers writing in a temp
 * home. Main's own dialog (the Electron edge) answers as the user would: Cancel, then Allow.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostdeskBridge } from '../../../src-shared/ipc';
import { commandLineHandlers } from '../../../src-main/core/bridge/command-line';
import { toBridgeError } from '../../../src-main/core/bridge/bridge-fault';
import { CommandLineCard } from '../../../src-renderer/src/features/settings/CommandLineCard';
import { useCommandLineStore } from '../../../src-renderer/src/stores/use-command-line-store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
let home: string;
beforeEach(() => {
  useCommandLineStore.setState({
    state: { data: null, loading: false, error: null, fetchedAt: null },
    busy: null,
    actionError: null,
  });
  home = mkdtempSync(join(tmpdir(), 'card-cli-'));
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  delete window.postdesk;
  rmSync(home, { recursive: true, force: true });
});

function installBridge(answers: boolean[]) {
  const handlers = commandLineHandlers(
    {
      host: () => ({
        platform: 'linux',
        home,
        env: { PATH: '/usr/bin' },
        cliScript: '/opt/Postdesk/resources/app.asar.unpacked/bin/postdesk.js',
        nodeVersion: async () => 'v24.1.0',
      }),
    },
    {
      confirm: async () =>
        answers.shift() ? { confirmed: true } : { confirmed: false, reason: 'You chose Cancel.' },
    },
  );
  const wrap =
    <T,>(fn: () => Promise<T>) =>
    async () => {
      try {
        return { ok: true as const, value: await fn() };
      } catch (err) {
        return { ok: false as const, error: toBridgeError(err) };
      }
    };
  window.postdesk = {
    host: 'electron',
    commandLine: {
      status: wrap(handlers.status),
      install: wrap(handlers.install),
      uninstall: wrap(handlers.uninstall),
    },
  } as unknown as PostdeskBridge;
}

const button = (label: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === label) as
    HTMLButtonElement | undefined;
/** Clicks, then lets the bridge call (real file work in main's handlers) and the re-render finish. */
const click = async (label: string) => {
  await act(async () => button(label)?.click());
  for (let i = 0; i < 100 && useCommandLineStore.getState().busy !== null; i += 1)
    await act(async () => new Promise((r) => setTimeout(r, 10)));
};

describe('the command-line card', () => {
  it('installs once confirmed outside the page, says where and what is missing, and removes it', async () => {
    installBridge([false, true, true]);
    await act(async () => root.render(<CommandLineCard />));
    // The status is real file work in main's handlers: wait for its answer, however busy the machine.
    for (let i = 0; i < 100 && container.textContent?.includes('Loading'); i += 1)
      await act(async () => new Promise((r) => setTimeout(r, 10)));
    const file = join(home, '.local', 'bin', 'postdesk');
    expect(container.textContent).toContain('not installed');
    expect(container.querySelector('dd')?.textContent).toBe(file);

    await click('Install command');
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('You chose Cancel.');
    expect(existsSync(file)).toBe(false);

    await click('Install command');
    expect(existsSync(file)).toBe(true);
    expect(container.textContent).toContain('installed');
    expect(container.querySelector('[role="alert"]')).toBeNull();
    // ~/.local/bin is not on this PATH: the card says so, in words.
    expect([...container.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      `${join(home, '.local', 'bin')} is not on your PATH yet: add it in your shell's settings, then open a new terminal.`,
    ]);

    await click('Remove command');
    expect(existsSync(file)).toBe(false);
    expect(button('Install command')).toBeDefined();
  });
});
