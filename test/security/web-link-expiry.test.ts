import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_PATH } from '../../src-shared/ipc/ws-protocol';
import { LINK_TTL_MS } from '../../src-main/cli/web/run-web';
import { printedLink, startTestWebHost, type TestWebHost } from '../helpers/web-host';

/**
 * The link `postdesk web` prints in its terminal expires like the one it hands the browser: it stays on
 * screen, in the scrollback and in pasted logs, so an unused code must not stay good for the life of the
 * host. Opened late, it is refused and the terminal prints a fresh one. The host and its HTTP are real; only
 * the clock (`Date`) is moved.
 */

let t: TestWebHost;
beforeAll(async () => {
  t = await startTestWebHost('pd-web-link-expiry-');
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const codeOf = (url: string): string => new URLSearchParams(new URL(url).hash.slice(1)).get('code') ?? '';

async function exchange(link: string): Promise<number> {
  const { origin } = new URL(link);
  const res = await fetch(`${origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code: codeOf(link) }),
  });
  return res.status;
}

describe("the terminal's link", () => {
  it('says how long it works', () => {
    expect(t.printed).toContain('(the link opens one page, within 2 minutes)');
  });

  it('is refused once its time is up, and the terminal prints a fresh one that works', async () => {
    // The helper used the first link; the one on screen now is its successor.
    const onScreen = printedLink(t.printed);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + LINK_TTL_MS + 1_000);
    expect(await exchange(onScreen)).toBe(403);

    const fresh = printedLink(t.printed);
    expect(fresh).not.toBe(onScreen);
    expect(t.printed).toContain('(that link had expired; a link opens a page within 2 minutes)');
    expect(await exchange(fresh)).toBe(200);
  });

  it('still works just before its time is up', async () => {
    const onScreen = printedLink(t.printed);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + LINK_TTL_MS - 5_000);
    expect(await exchange(onScreen)).toBe(200);
  });
});
