import { describe, expect, it } from 'vitest';
import { createBridgeEvents } from '../../../src-main/core/bridge/events';
import { createRouteInbox } from '../../../src-main/core/bridge/route-inbox';

describe('the route inbox (app:pendingRoute)', () => {
  it('with no page listening, keeps the latest route for a page that subscribes later, cleared when taken', () => {
    const inbox = createRouteInbox(createBridgeEvents());
    expect(inbox.take()).toBeNull();
    inbox.open({ kind: 'post', id: 'd1' });
    inbox.open({ kind: 'run', id: 'r1' });
    expect(inbox.take()).toEqual({ kind: 'run', id: 'r1' });
    expect(inbox.take()).toBeNull();
  });

  it('does not keep a route a live page received, so a reload does not open it again', () => {
    const events = createBridgeEvents();
    const heard: unknown[] = [];
    events.subscribe((channel, payload) => void heard.push({ channel, payload }));
    const inbox = createRouteInbox(events);
    inbox.open({ kind: 'post', id: 'd1' });
    expect(heard).toEqual([{ channel: 'app:didOpenRoute', payload: { kind: 'post', id: 'd1' } }]);
    expect(inbox.take()).toBeNull();
  });

  it('keeps a route when the only listener had no page to hand it to (a window still loading)', () => {
    const events = createBridgeEvents();
    const sub = events.subscribe(() => false);
    const inbox = createRouteInbox(events);
    inbox.open({ kind: 'post', id: 'd1' });
    expect(inbox.take()).toEqual({ kind: 'post', id: 'd1' });
    // A page that listens and one that cannot: the live one received it.
    events.subscribe(() => undefined);
    inbox.open({ kind: 'run', id: 'r1' });
    expect(inbox.take()).toBeNull();
    sub.dispose();
  });

  it('forgets a route nobody took within its time', () => {
    let now = 1_000;
    const inbox = createRouteInbox(createBridgeEvents(), { ttlMs: 60_000, now: () => now });
    inbox.open({ kind: 'post', id: 'd1' });
    now += 60_001;
    expect(inbox.take()).toBeNull();
  });
});
