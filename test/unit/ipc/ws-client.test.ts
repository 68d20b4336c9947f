import { describe, expect, it, vi } from 'vitest';
import { createWsBridge, installWebBridge, type WebSocketLike } from '../../../src-shared/ipc/ws-client';
import { readLaunchCode } from '../../../src-shared/ipc/ws-protocol';

/** A socket the test opens, closes and answers by hand (the network is the edge here). */
class HandSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: string[] = [];
  private readonly handlers = new Map<string, ((e: { data?: unknown }) => void)[]>();
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.fire('close');
  }
  addEventListener(type: string, l: (e: { data?: unknown }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), l]);
  }
  fire(type: string, data?: unknown) {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const l of this.handlers.get(type) ?? []) l({ data });
  }
}

const SECRET = 'a'.repeat(43);

describe('the browser bridge', () => {
  it('sends the secret on the upgrade, pairs answers with calls, delivers events', async () => {
    const sockets: HandSocket[] = [];
    const { bridge } = createWsBridge({
      origin: 'http://127.0.0.1:5000',
      token: SECRET,
      openSocket: (u) => (sockets.push(new HandSocket(u)), sockets.at(-1)!),
    });
    const events: unknown[] = [];
    bridge.posts.onDidChange((p) => events.push(p));
    const pending = bridge.accounts.list();
    const s = sockets[0]!;
    expect(s.url).toBe(`ws://127.0.0.1:5000/bridge?token=${SECRET}`);
    s.fire('open');
    const call = JSON.parse(s.sent[0]!) as { id: number; channel: string };
    expect(call).toMatchObject({ t: 'invoke', channel: 'accounts:list' });
    s.fire(
      'message',
      JSON.stringify({ t: 'event', channel: 'posts:didChange', payload: { reason: 'created' } }),
    );
    s.fire(
      'message',
      JSON.stringify({ t: 'result', id: call.id, result: { ok: true, value: { accounts: [] } } }),
    );
    expect(await pending).toEqual({ ok: true, value: { accounts: [] } });
    expect(events).toEqual([{ reason: 'created' }]);
  });

  it('answers calls cut off by a closed socket as network failures, and never sends them later', async () => {
    const sockets: HandSocket[] = [];
    const { bridge, close } = createWsBridge({
      origin: 'http://127.0.0.1:5000',
      token: SECRET,
      reconnectMs: 0,
      openSocket: (u) => (sockets.push(new HandSocket(u)), sockets.at(-1)!),
    });
    const lost = bridge.posts.create({ caption: 'x', targets: [] });
    sockets[0]!.fire('close');
    expect(await lost).toMatchObject({ ok: false, error: { kind: 'network' } });
    await new Promise((r) => setTimeout(r, 5));
    const again = sockets[1]!;
    again.fire('open');
    expect(again.sent).toEqual([]);
    close();
  });

  it('waits longer after each reconnect that fails, and stops for good once the host refuses its secret', async () => {
    vi.useFakeTimers();
    try {
      const sockets: HandSocket[] = [];
      const states: string[] = [];
      // The host's answer to the secret check after each socket that never opened: fine, fine, refused.
      const answers = [404, 404, 403];
      const checked: string[] = [];
      const { bridge } = createWsBridge({
        origin: 'http://127.0.0.1:5000',
        token: SECRET,
        reconnectMs: 100,
        openSocket: (u) => (sockets.push(new HandSocket(u)), sockets.at(-1)!),
        fetch: async (url) => {
          checked.push(url);
          return { status: answers.shift() ?? 403, json: async () => ({}) };
        },
        onLinkChange: (s) => states.push(s),
      });
      void bridge.accounts.list();
      sockets[0]!.fire('close');
      await vi.advanceTimersByTimeAsync(99);
      expect(sockets).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(2); // after 100 ms
      sockets[1]!.fire('close');
      await vi.advanceTimersByTimeAsync(199);
      expect(sockets).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(3); // after 200 ms
      sockets[2]!.fire('close');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(sockets).toHaveLength(3); // refused: no more attempts
      expect(states).toEqual(['reconnecting', 'refused']);
      expect(checked[0]).toBe(`http://127.0.0.1:5000/media/-?token=${SECRET}`);
      expect(await bridge.accounts.list()).toMatchObject({
        ok: false,
        error: { kind: 'network', message: 'This page is no longer attached to Postdesk.' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('installs window.postdesk from the session a reload finds in sessionStorage; no link, no bridge', async () => {
    const store = new Map<string, string>([['postdesk.session-secret', SECRET]]);
    const win = {
      location: { origin: 'http://127.0.0.1:5000', hash: '', search: '', pathname: '/' },
      sessionStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
      },
    } as Parameters<typeof installWebBridge>[0];
    expect(await installWebBridge(win)).toBe('web');
    expect(win.postdesk).toBeDefined();
    expect(await installWebBridge({ ...win, postdesk: { host: 'electron' } })).toBe('electron');
    expect(await installWebBridge({ location: win.location })).toBeNull();
    // The session secret itself in the address is not a way in any more.
    expect(await installWebBridge({ location: { ...win.location, hash: `#secret=${SECRET}` } })).toBeNull();
  });

  it('reads only a well-formed one-time code', () => {
    expect(readLaunchCode(`#code=${SECRET}`)).toBe(SECRET);
    expect(readLaunchCode(`#secret=${SECRET}`)).toBeNull();
    expect(readLaunchCode('#code=short')).toBeNull();
    expect(readLaunchCode('#code=<script>alert(1)</script>xxxxxxxxxxxxxxx')).toBeNull();
  });
});

describe('the bridge under Node', () => {
  it('hears a refused connection on a real `ws` socket, so nothing is thrown out of the event loop', async () => {
    const { WebSocket } = await import('ws');
    const { createServer } = await import('node:net');
    // A port that was just free: nothing listens there, so the connection is refused.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    const uncaught = vi.fn();
    process.on('uncaughtException', uncaught);
    let opened = 0;
    const { close, bridge } = createWsBridge({
      origin: `http://127.0.0.1:${port}`,
      token: SECRET,
      reconnectMs: 1,
      fetch: () => Promise.reject(new Error('offline')),
      openSocket: (u) => ((opened += 1), new WebSocket(u) as unknown as WebSocketLike),
    });
    const answer = await bridge.accounts.list();
    // Refused and retried at least twice: each refusal went through the close-and-retry path.
    await vi.waitFor(() => expect(opened).toBeGreaterThan(2));
    close();
    process.off('uncaughtException', uncaught);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(uncaught).not.toHaveBeenCalled();
  });
});
