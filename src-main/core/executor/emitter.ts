export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A minimal typed event source in the `onDidX` style; a throwing listener never breaks the executor. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // Listeners belong to the app; their faults are theirs.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
