import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  DisposableStore,
  Emitter,
  listen,
  toDisposable,
  type EventTarget,
} from '../../../../src-main/core/common/events';

describe('Emitter', () => {
  it('delivers to every listener until its subscription is disposed', () => {
    const e = new Emitter<number>();
    const a: number[] = [];
    const b: number[] = [];
    const subA = e.event((n) => a.push(n));
    e.event((n) => b.push(n));
    e.fire(1);
    subA.dispose();
    subA.dispose();
    e.fire(2);
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2]);
  });

  it('counts the same function subscribed twice as two subscriptions', () => {
    const e = new Emitter<string>();
    const heard: string[] = [];
    const listener = (s: string): void => void heard.push(s);
    const first = e.event(listener);
    e.event(listener);
    e.fire('x');
    first.dispose();
    e.fire('y');
    expect(heard).toEqual(['x', 'x', 'y']);
  });

  it('reports a failing listener and still reaches the others', () => {
    const errors: unknown[] = [];
    const e = new Emitter<number>((err) => errors.push(err));
    const heard: number[] = [];
    e.event(() => {
      throw new Error('tray refresh failed');
    });
    e.event((n) => heard.push(n));
    e.fire(7);
    expect(heard).toEqual([7]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('tray refresh failed');
  });

  it('fires to the listeners present when it started: one added meanwhile waits for the next event', () => {
    const e = new Emitter<number>();
    const late: number[] = [];
    e.event(() => void e.event((n) => late.push(n)));
    e.fire(1);
    expect(late).toEqual([]);
    e.fire(2);
    expect(late).toEqual([2]);
  });

  it('drops every listener on dispose', () => {
    const e = new Emitter<number>();
    const heard: number[] = [];
    e.event((n) => heard.push(n));
    e.dispose();
    e.fire(1);
    expect(heard).toEqual([]);
  });
});

describe('disposables', () => {
  it('toDisposable runs its function once', () => {
    let runs = 0;
    const d = toDisposable(() => (runs += 1));
    d.dispose();
    d.dispose();
    expect(runs).toBe(1);
  });

  it('a store disposes in reverse order, once, and disposes at once what is added after', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('first')));
    const second = store.add(toDisposable(() => order.push('second')));
    expect(second).toHaveProperty('dispose');
    store.dispose();
    store.dispose();
    expect(order).toEqual(['second', 'first']);
    store.add(toDisposable(() => order.push('late')));
    expect(order).toEqual(['second', 'first', 'late']);
  });

  it('listen subscribes to a Node emitter and its disposable unsubscribes', () => {
    const target = new EventEmitter();
    const heard: [number, string][] = [];
    // Electron's objects share this shape; Node's generic typing of `on` does not line up with it.
    const d = listen(target as unknown as EventTarget, 'data', (n: number, s: string) => heard.push([n, s]));
    target.emit('data', 1, 'a');
    d.dispose();
    target.emit('data', 2, 'b');
    expect(heard).toEqual([[1, 'a']]);
    expect(target.listenerCount('data')).toBe(0);
  });
});
