import type { ConnectionStatus } from '../../../src-shared/ipc/connection';
import { NOT_CONFIRMED_CODE, type SettingsPatch } from '../../../src-shared/ipc/settings';
import { BridgeFault } from './bridge-fault';
import { NOT_CONFIRMED, guardedChange } from './confirm';
import { EXTERNAL_HOSTS, hostOfHttps, isAllowedExternal } from './external-links';
import type { BridgeDeps } from './handler-deps';
import type { Handlers } from './handler-types';
import type { BridgeCore } from './ports';

/**
 * `app`, `connection`, `secrets` and `settings`: which service the bridge talks to and what the person set. Each
 * change of connection is told to the pages with the service's clock offset.
 */
export function createConnectionHandlers(
  core: Pick<BridgeCore, 'connection' | 'secrets' | 'settings'>,
  deps: BridgeDeps,
): Pick<Handlers, 'app' | 'connection' | 'secrets' | 'settings'> {
  const { events } = deps;
  /**
   * The one confirmation, outside the page, of a change to what runs or where requests go: `settings:update`
   * and Connect's new address both ask here, and go on only on the person's yes.
   */
  const confirmGuarded = async (patch: SettingsPatch): Promise<void> => {
    const change = guardedChange(await core.settings.get(), patch);
    if (!change) return;
    const answer = deps.confirm ? await deps.confirm.confirm(change) : null;
    if (!answer?.confirmed) {
      const reason = answer?.reason ?? NOT_CONFIRMED;
      throw new BridgeFault('forbidden', reason, undefined, { code: NOT_CONFIRMED_CODE });
    }
  };
  /**
   * The status with the service's clock offset (src-shared/ipc/connection.ts), learned from its answers; when none
   * has said its time yet, one cheap read asks (a failure leaves the offset out: the page uses its own clock).
   */
  const withClock = async (status: ConnectionStatus): Promise<ConnectionStatus> => {
    if (status.state !== 'connected') return status;
    try {
      const client = await core.connection.api();
      const clock = client.clock;
      if (!clock) return status;
      if (!clock.known()) await client.listAccounts().catch(() => undefined);
      return clock.known()
        ? { ...status, clock_offset_ms: Math.round(clock.now().getTime() - Date.now()) }
        : status;
    } catch {
      return status;
    }
  };
  const connectionChanged = async (status: ConnectionStatus): Promise<ConnectionStatus> => {
    const told = await withClock(status);
    events.emit('connection:didChange', told);
    return told;
  };

  return {
    app: {
      info: async () => ({
        host: deps.host,
        version: deps.version,
        platform: deps.platform ?? process.platform,
        file_dialog: Boolean(deps.picker),
      }),
      openExternal: async ({ url }) => {
        const { base_url } = await core.connection.status();
        const hosts = [...(deps.externalHosts ?? EXTERNAL_HOSTS), ...[hostOfHttps(base_url)].filter(Boolean)];
        if (!deps.openExternal || !isAllowedExternal(url, hosts as string[])) return { opened: false };
        await deps.openExternal(url);
        return { opened: true };
      },
      pendingRoute: async () => ({ route: deps.routes?.take() ?? null }),
    },
    connection: {
      status: async () => withClock(await core.connection.status()),
      connect: async ({ base_url, api_key }) => {
        // A new service address is confirmed like one typed into Settings, before anything is sent there.
        if (!(await core.connection.isKnownAddress(base_url))) await confirmGuarded({ base_url });
        return connectionChanged(await core.connection.connect(base_url, api_key));
      },
      useOffline: async () => connectionChanged(await core.connection.useOffline()),
      disconnect: async () => connectionChanged(await core.connection.disconnect()),
    },
    secrets: {
      set: async ({ api_key }) => {
        await core.secrets.set(api_key);
        connectionChanged(await core.connection.status());
        return { stored: true };
      },
      has: () => core.secrets.has(),
      clear: async () => {
        await core.secrets.clear();
        connectionChanged(await core.connection.status());
        return { cleared: true };
      },
    },
    settings: {
      get: () => core.settings.get(),
      update: async (patch) => {
        await confirmGuarded(patch);
        const view = await core.settings.update(patch);
        events.emit('settings:didChange', view);
        return view;
      },
    },
  };
}
