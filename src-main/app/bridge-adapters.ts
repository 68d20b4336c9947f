/**
 * Ties the shell's services to the bridge: the updater behind the `updates` channels (it exists only
 * once the shell has started, after the bridge), and the core's delivery watcher behind notifications.
 */
import type { DeliveryFailed } from '../../src-shared/ipc/posts';
import type { DeliveryUnconfirmed } from '../../src-shared/ipc/watch';
import type { UpdatesPort } from '../core/bridge/ports';
import type { DeliveryEvents, InboxEvents } from './capabilities';
import type { Disposable } from '../core/common/events';
import { freshUpdateState, type UpdateChannel, type UpdateState } from './update-state';
import type { UpdateService } from './updater';

/** The state shown where this app does not update itself (a development run): phase `disabled`. */
export function disabledUpdateState(channel: UpdateChannel, currentVersion: string): UpdateState {
  return freshUpdateState('disabled', channel, currentVersion);
}

/** The `updates` channels on the shell's update service, read late: it is made after the bridge. */
export function updatesPortFor(
  service: () => Pick<UpdateService, 'state' | 'checkNow' | 'restartNow'> | null,
  fallback: () => UpdateState,
): UpdatesPort {
  return {
    state: () => service()?.state() ?? fallback(),
    async check() {
      const s = service();
      if (!s) return fallback();
      await s.checkNow();
      return s.state();
    },
    restartNow() {
      const s = service();
      if (!s) return fallback();
      s.restartNow();
      return s.state();
    },
  };
}

/** The core watcher's failures as the notification service takes them. */
export function deliveryEventsOf(watch: {
  onDidFailDelivery(listener: (d: DeliveryFailed) => void): Disposable;
  onDidNotConfirm?(listener: (d: DeliveryUnconfirmed) => void): Disposable;
}): DeliveryEvents {
  const notConfirmed = watch.onDidNotConfirm?.bind(watch);
  return {
    ...(notConfirmed
      ? {
          onDidNotConfirm: (listener) =>
            notConfirmed((d) =>
              listener({ id: d.id, post_id: d.post_id, platform: d.platform, scheduledAt: d.scheduled_at }),
            ),
        }
      : {}),
    onDidFailDelivery: (listener) =>
      watch.onDidFailDelivery((d) =>
        listener({ id: d.id, post_id: d.post_id, platform: d.platform, error: d.error }),
      ),
  };
}

/** The core's inbox watch as the tray and the notification service take it. */
export function inboxEventsOf(
  watch: {
    onDidDraftRun(
      listener: (r: { runId: string; automationName: string | null; drafts: number }) => void,
    ): Disposable;
    onDidChangeCount(listener: (total: number) => void): Disposable;
    count(): number;
  },
  proposals?: { onDidPropose(listener: (p: { id: string; tool: string }) => void): Disposable },
): InboxEvents {
  return {
    ...(proposals
      ? { onDidPropose: (listener) => proposals.onDidPropose((p) => listener({ id: p.id, tool: p.tool })) }
      : {}),
    onDidDraftRun: (listener) =>
      watch.onDidDraftRun((r) =>
        listener({ runId: r.runId, automationName: r.automationName, drafts: r.drafts }),
      ),
    onDidChangeCount: (listener) => watch.onDidChangeCount(listener),
    count: () => watch.count(),
  };
}
