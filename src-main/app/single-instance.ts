/**
 * One Postdesk at a time: two executors on one machine would claim the same runs twice. A second launch
 * hands its command line (and any deep link on it) to the first, which comes to the front; the second quits.
 */
import type { App } from 'electron';
import { listen, type Disposable } from '../core/common/events';

export interface SecondInstanceHandler {
  /** Brings the existing window to the front. */
  reveal(): void;
  /** The second launch's arguments: untrusted, validated by the deep-link router. */
  openArgv(argv: readonly string[]): void;
}

/**
 * Takes the lock. Returns null when another instance holds it: this process has then asked to quit,
 * and the caller must start nothing.
 */
export function acquireSingleInstance(app: App, handler: SecondInstanceHandler): Disposable | null {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  return listen(app, 'second-instance', (_event: Electron.Event, argv: string[]) => {
    handler.reveal();
    handler.openArgv(Array.isArray(argv) ? argv : []);
  });
}
