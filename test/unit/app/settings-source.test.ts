import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { observeSettings } from '../../../src-main/app/settings-source';
import { MemorySecretStore } from '../../../src-main/host/memory-secret-store';
import { openLocal } from '../../../src-main/core/services';
import type { ShellSettings } from '../../../src-main/app/capabilities';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('observeSettings (on the real settings store)', () => {
  it('defaults to start at login off and the stable channel, and reports changes to them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'postdesk-settings-'));
    dirs.push(dir);
    const local = openLocal(dir, new MemorySecretStore());
    try {
      const { service, source } = observeSettings(local.settings);
      expect(source.get()).toEqual({ startAtLogin: false, updateChannel: 'stable' });
      const seen: ShellSettings[] = [];
      source.onDidChange((s) => seen.push(s));

      service.update({ concurrency: 2 });
      expect(seen).toEqual([]);
      service.update({ updateChannel: 'beta' });
      service.update({ startAtLogin: true });
      expect(seen).toEqual([
        { startAtLogin: false, updateChannel: 'beta' },
        { startAtLogin: true, updateChannel: 'beta' },
      ]);
      // Persisted: a fresh read of the same store sees them.
      expect(openLocal(dir, new MemorySecretStore()).settings.get()).toMatchObject({
        startAtLogin: true,
        updateChannel: 'beta',
      });
    } finally {
      local.store.close();
    }
  });
});
