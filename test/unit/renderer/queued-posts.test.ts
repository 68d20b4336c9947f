import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as React from 'react';
import type { Root } from 'react-dom/client';
import type { PostdeskBridge } from '../../../src-shared/ipc/bridge';

/**
 * The queued-posts notice on a real `postdesk web --sandbox`, over its real WebSocket bridge, rendered by React into
 * a jsdom document: publishes nobody can place are shown as needing the person's decision, and each button does what
 * it says, once.
 */

/** test/helpers/undecided-host.ts and dom.ts, loaded by name at run time: this file is type-checked as page code. */
interface Helpers {
  installDom(): () => void;
  startUndecidedHost(captions: readonly string[]): Promise<{
    readonly bridge: PostdeskBridge;
    readonly entryIds: readonly string[];
    states(): Record<string, string>;
    postsWithCaption(caption: string): Promise<number>;
    close(): Promise<void>;
  }>;
}
const HELPERS = ['../../helpers/dom', '../../helpers/undecided-host'];

const CAPTIONS = ['Doors open at nine', 'Last tickets tonight'];
let host: Awaited<ReturnType<Helpers['startUndecidedHost']>>;
let react: typeof React;
let root: Root;
let container: HTMLElement;
let stopListening: () => void;
let removeDom: () => void;

beforeAll(async () => {
  const helpers = Object.assign(
    {},
    ...(await Promise.all(HELPERS.map((h) => import(/* @vite-ignore */ h)))),
  ) as Helpers;
  removeDom = helpers.installDom();
  host = await helpers.startUndecidedHost(CAPTIONS);
  window.postdesk = host.bridge;
  // Page code is loaded once the document exists, as in a browser.
  react = await import('react');
  const { createRoot } = await import('react-dom/client');
  const { QueuedPosts } = await import('../../../src-renderer/src/components/QueuedPosts');
  const { useOutboxStore } = await import('../../../src-renderer/src/stores/use-outbox-store');
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await react.act(async () => {
    stopListening = useOutboxStore.getState().listen();
    root.render(react.createElement(QueuedPosts));
  });
});
afterAll(async () => {
  await react?.act(async () => root.unmount());
  stopListening?.();
  await host?.close();
  removeDom?.();
});

const text = () => container.textContent ?? '';
const button = (label: RegExp): HTMLButtonElement => {
  const found = [...container.querySelectorAll('button')].find((b) =>
    label.test(b.getAttribute('aria-label') ?? ''),
  );
  if (!found) throw new Error(`no button ${label}: ${text()}`);
  return found;
};
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await react.act(async () => new Promise((r) => setTimeout(r, 25)));
  }
  throw new Error(`timed out; the notice says: ${text()}`);
}

it('shows publishes nobody can place as needing a decision, in words for a person', async () => {
  await until(() => /2 posts need your decision/.test(text()));
  for (const c of CAPTIONS) expect(text()).toContain(c);
  expect(text()).toMatch(/will not send them again on its own/);
  // Written for a person: no command, no state name, no outbox entry.
  expect(text()).not.toMatch(/outbox|retry|discard|needs_decision|\bentry\b/i);
  expect(container.querySelector('[aria-label="Posts waiting to be sent"]')).toBeNull();
});

it('"It was published" forgets the post and sends nothing', async () => {
  await react.act(async () => button(/It was published: forget “Doors open at nine”/).click());
  await until(() => /1 post needs your decision/.test(text()));
  expect(text()).not.toContain(CAPTIONS[0]);
  expect(host.states()[host.entryIds[0] as string]).toBeUndefined();
  expect(await host.postsWithCaption(CAPTIONS[0] as string)).toBe(0);
});

it('"Send it again" publishes it once and the notice goes away', async () => {
  await react.act(async () => button(/send “Last tickets tonight” again/).click());
  await until(async () => (await host.postsWithCaption(CAPTIONS[1] as string)) === 1);
  await until(() => container.querySelector('section') === null);
  expect(host.states()[host.entryIds[1] as string]).toBe('sent');
  expect(await host.postsWithCaption(CAPTIONS[1] as string)).toBe(1);
});
