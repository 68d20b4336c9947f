import { describe, expect, it } from 'vitest';
import { createBridgeEvents } from '../../../../src-main/core/bridge/events';
import { MemoryLog } from '../../../helpers/memory-log';

const notice = { level: 'info', message: 'hello' } as const;

describe('bridge events', () => {
  it('a page whose listener throws is logged; the other pages still hear the event', () => {
    const log = new MemoryLog();
    const events = createBridgeEvents(log);
    const heard: unknown[] = [];
    events.subscribe(() => {
      throw new Error('the window is gone');
    });
    events.subscribe((_channel, payload) => void heard.push(payload));
    expect(events.emit('app:didNotify', notice)).toBe(true);
    expect(heard).toEqual([notice]);
    expect(log.entries).toEqual([
      { level: 'warn', message: 'a bridge event listener failed', fields: { error: 'the window is gone' } },
    ]);
  });

  it('is not delivered when every listener threw or had no page to tell', () => {
    const log = new MemoryLog();
    const events = createBridgeEvents(log);
    const broken = events.subscribe(() => {
      throw new Error('boom');
    });
    events.subscribe(() => false);
    expect(events.emit('app:didNotify', notice)).toBe(false);
    broken.dispose();
    expect(events.emit('app:didNotify', notice)).toBe(false);
    expect(log.entries).toHaveLength(1);
  });
});
