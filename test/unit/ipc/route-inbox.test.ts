import { describe, expect, it } from 'vitest';
import { createBridgeEvents } from '../../../src-main/core/bridge/events';
import { createRouteInbox } from '../../../src-main/core/bridge/route-inbox';

describe('the route inbox (app:pendingRoute)', () => {
  it('sends the route now, keeps the latest for a page that subscribes later, and clears it when taken', () => {
    const events = createBridgeEvents();
    const heard: unknown[] = [];
    events.subscribe((channel, payload) => heard.push({ channel, payload }));
    const inbox = createRouteInbox(events);

    expect(inbox.take()).toBeNull();
    inbox.open({ kind: 'post', id: 'd1' });
    inbox.open({ kind: 'run', id: 'r1' });
    expect(heard).toEqual([
      { channel: 'app:didOpenRoute', payload: { kind: 'post', id: 'd1' } },
      { channel: 'app:didOpenRoute', payload: { kind: 'run', id: 'r1' } },
    ]);
    expect(inbox.take()).toEqual({ kind: 'run', id: 'r1' });
    expect(inbox.take()).toBeNull();
  });

  it('forgets a route nobody took within its time', () => {
    let now = 1_000;
    const inbox = createRouteInbox(createBridgeEvents(), { ttlMs: 60_000, now: () => now });
    inbox.open({ kind: 'post', id: 'd1' });
    now += 60_001;
    expect(inbox.take()).toBeNull();
  });
});
