/** Events and disposables in the VS Code manner: `onDidX(listener) → Disposable`. */

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Holds disposables and disposes of them together, in reverse order of registration. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) item.dispose();
  }
}

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(e: T) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  readonly event: Event<T> = (listener) => {
    // Wrap so the same function can subscribe twice and unsubscribe each time independently.
    const entry = (e: T): void => listener(e);
    this.listeners.add(entry);
    return toDisposable(() => this.listeners.delete(entry));
  };

  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      // One failing listener must not starve the others (a tray refresh must not stop a notification).
      try {
        listener(e);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** The subset of Node's EventEmitter that Electron's objects share. */
export interface EventTarget {
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/** Subscribes to a Node-style emitter and returns the matching unsubscribe. */
export function listen<A extends unknown[]>(
  target: EventTarget,
  event: string,
  listener: (...args: A) => void,
): Disposable {
  const l = listener as unknown as (...args: never[]) => void;
  target.on(event, l);
  return toDisposable(() => target.removeListener(event, l));
}
