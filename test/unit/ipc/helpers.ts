import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocal } from '../../../src-main/core/services';
import { assembleBridge, type AssembledBridge } from '../../../src-main/core/bridge/assemble';
import {
  createBridgeSession,
  type BridgeSession,
  type OfflineService,
} from '../../../src-main/core/bridge/session';
import { MemorySecretStore } from '../../../src-main/core/bridge/memory-secret-store';
import { desktopPreviewUrl } from '../../../src-main/core/bridge/media-url';

export interface TestBridge {
  readonly dir: string;
  readonly bridge: AssembledBridge;
  readonly session: BridgeSession;
  readonly opened: string[];
  close(): Promise<void>;
}

/** The real bridge on a temporary store, an in-memory keychain and (optionally) a real sandbox. */
export async function makeBridge(offline?: () => Promise<OfflineService>): Promise<TestBridge> {
  const dir = await mkdtemp(join(tmpdir(), 'postdesk-bridge-'));
  const local = openLocal(dir, new MemorySecretStore());
  const session = createBridgeSession({
    secrets: local.secrets,
    settings: local.settings,
    env: {},
    ...(offline ? { offline } : {}),
  });
  const opened: string[] = [];
  const bridge = assembleBridge({
    host: 'electron',
    version: 'test',
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    stagingDir: join(dir, 'staging'),
    openExternal: async (url) => void opened.push(url),
  });
  return {
    dir,
    bridge,
    session,
    opened,
    async close() {
      bridge.close();
      await session.close();
      local.store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
