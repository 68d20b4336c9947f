/**
 * The connection state for the tray, from the bridge session (the same state Connect shows). The
 * session answers asynchronously; the tray reads synchronously, so the last answer is kept.
 */
import type { BridgeSession } from '../core/bridge/host-ports';
import type { ConnectionSource, ConnectionState, Logger } from './capabilities';
import { Emitter, type Disposable } from '../core/common/events';
import { errorText } from '../core/common/error-text';

export class SessionConnection implements ConnectionSource, Disposable {
  private state: ConnectionState = 'disconnected';
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly session: Pick<BridgeSession, 'connection' | 'onDidSwitch'>,
    private readonly log: Logger,
  ) {
    this.unsubscribe = session.onDidSwitch(() => void this.refresh());
  }

  current(): ConnectionState {
    return this.state;
  }

  async refresh(): Promise<void> {
    try {
      const next = (await this.session.connection.status()).state;
      if (next === this.state) return;
      this.state = next;
      this.changed.fire();
    } catch (error) {
      this.log.warn('could not read the connection status', {
        error: errorText(error),
        stack: (error as Error).stack,
      });
    }
  }

  dispose(): void {
    this.unsubscribe();
    this.changed.dispose();
  }
}
