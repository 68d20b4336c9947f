import { mkdtemp, rm } from 'node:fs/promises';
import { createThumbnails } from '../../../src-main/host/thumbnails';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocal } from '../../../src-main/core/services';
import { assembleBridge, type AssembledBridge } from '../../../src-main/core/bridge/assemble';
import { createBridgeSession, type SessionOptions } from '../../../src-main/host/session';
import type { BridgeSession, OfflineService } from '../../../src-main/core/bridge/host-ports';
import { MemorySecretStore } from '../../../src-main/host/memory-secret-store';
import { desktopPreviewUrl } from '../../../src-main/host/media-url';
import type { ConfirmPort } from '../../../src-main/core/bridge/confirm';
import type { FilePicker } from '../../../src-main/core/bridge/ports';

export interface TestBridge {
  readonly dir: string;
  readonly bridge: AssembledBridge;
  readonly session: BridgeSession;
  readonly opened: string[];
  close(): Promise<void>;
}

/** A user who allows every change asked: for tests of what happens after the confirmation. */
export const ALLOW_ALL: ConfirmPort = { confirm: async () => ({ confirmed: true }) };

/**
 * The real bridge on a temporary store, an in-memory keychain and (optionally) a real sandbox. `confirm`
 * and `picker` stand in for the desktop app's native dialogs (none: guarded changes are refused).
 */
export async function makeBridge(
  offline?: () => Promise<OfflineService>,
  o: {
    readonly confirm?: ConfirmPort;
    readonly picker?: FilePicker;
    /** How the session builds its clients (the real one by default): a test may shorten the retry waits. */
    readonly createClient?: SessionOptions['createClient'];
  } = {},
): Promise<TestBridge> {
  const dir = await mkdtemp(join(tmpdir(), 'postdesk-bridge-'));
  const local = openLocal(dir, new MemorySecretStore());
  const session = createBridgeSession({
    secrets: local.secrets,
    settings: local.settings,
    env: {},
    ...(offline ? { offline } : {}),
    ...(o.createClient ? { createClient: o.createClient } : {}),
  });
  const opened: string[] = [];
  const bridge = assembleBridge({
    host: 'electron',
    version: 'test',
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    thumbnails: createThumbnails(),
    stagingDir: join(dir, 'staging'),
    openExternal: async (url) => void opened.push(url),
    confirm: o.confirm,
    picker: o.picker,
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

/** Grants files as main's own dialog would: what tests pass to the channels instead of paths. */
export async function grant(tb: TestBridge, ...paths: string[]): Promise<string[]> {
  const { files } = await tb.bridge.grants.mint(
    paths.map((path) => ({ path })),
    'dialog',
  );
  return files.map((f) => f.grant);
}
