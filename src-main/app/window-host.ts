/**
 * Holds the one main window: made on first need (window.ts builds it), brought to the front on demand,
 * hidden rather than closed while the app lives in the tray.
 */
import type { BrowserWindow } from 'electron';
import { DisposableStore, Emitter, listen, type Disposable } from '../core/common/events';
import { keepInTrayOnClose } from './lifecycle';

export type MainWindowFactory = () => BrowserWindow;

export class MainWindowHost implements Disposable {
  private win: BrowserWindow | null = null;
  private readonly perWindow = new DisposableStore();
  private readonly didReveal = new Emitter<void>();
  /** Fires whenever the window is brought up (the tray clears its "attention" state then). */
  readonly onDidReveal = this.didReveal.event;

  constructor(
    private readonly create: MainWindowFactory,
    private readonly isQuitting: () => boolean,
  ) {}

  /** The window if it exists and is alive. */
  current(): BrowserWindow | null {
    return this.win && !this.win.isDestroyed() ? this.win : null;
  }

  /** Shows the window, creating it if needed, and gives it focus. */
  reveal(): BrowserWindow {
    let win = this.current();
    if (!win) {
      win = this.create();
      this.win = win;
      const created = win;
      this.perWindow.add(keepInTrayOnClose(created, this.isQuitting));
      this.perWindow.add(
        listen(created, 'closed', () => {
          if (this.win === created) this.win = null;
        }),
      );
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    this.didReveal.fire();
    return win;
  }

  hide(): void {
    this.current()?.hide();
  }

  dispose(): void {
    this.perWindow.dispose();
    this.didReveal.dispose();
  }
}
