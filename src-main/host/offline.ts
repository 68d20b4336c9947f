import { createApiClient } from '../core/api/client';
import { connectSandbox, type SandboxLink, type StartSandboxFn } from '../core/sandbox-link';
import type { OfflineService } from '../core/bridge/host-ports';

export interface OfflineLauncher {
  /** Starts (or reuses) the sandbox once; later calls return the same service. */
  (): Promise<OfflineService>;
  /** The running sandbox, once started. The demo key stays inside. */
  link(): Pick<SandboxLink, 'url' | 'apiKey'> | null;
  close(): Promise<void>;
}

/** "Try offline": the sandbox of this data directory, started in this process when none runs. */
export function createOfflineLauncher(dataDir: string, startSandbox: StartSandboxFn): OfflineLauncher {
  let started: Promise<{ link: SandboxLink; svc: OfflineService }> | null = null;
  let link: SandboxLink | null = null;
  const launch = (async () => {
    started ??= (async () => {
      const l = await connectSandbox(dataDir, startSandbox);
      link = l;
      return {
        link: l,
        svc: {
          baseUrl: l.url,
          client: createApiClient({ baseUrl: l.url, apiKey: l.apiKey }),
          apiKey: l.apiKey,
        },
      };
    })();
    try {
      return (await started).svc;
    } catch (e) {
      started = null;
      throw e;
    }
  }) as OfflineLauncher;
  launch.link = () => link;
  launch.close = async () => {
    const s = started;
    started = null;
    if (!s) return;
    const { link: l, svc } = await s.catch(() => ({ link: null, svc: null }));
    await svc?.client.close().catch(() => undefined);
    await l?.close();
    link = null;
  };
  return launch;
}
