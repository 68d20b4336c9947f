import type { z } from 'zod';
import { SETTING_KEYS, Settings, type SettingKey } from '../../../src-shared/settings';
import type { Store } from '../store/store';

/** The store's side of the settings declared in src-shared/settings.ts. */
export type SettingsPatch = Partial<z.input<typeof Settings>>;

/** The settings of one data directory, read and changed as a whole (the core's `settings`). */
export interface SettingsService {
  get(): Readonly<Settings>;
  update(patch: Readonly<SettingsPatch>): Readonly<Settings>;
}

/** Reads all settings; a stored value that no longer parses falls back to its default rather than failing. */
export function readSettings(store: Store): Readonly<Settings> {
  const raw = store.settings.all();
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const field = Settings.shape[key];
    const parsed = field.safeParse(raw[key]);
    out[key] = parsed.success ? parsed.data : field.parse(undefined);
  }
  return out as Settings;
}

/** Validates and writes a patch; `null` resets a nullable setting, `undefined` leaves it. */
export function updateSettings(store: Store, patch: Readonly<SettingsPatch>): Readonly<Settings> {
  const merged = Settings.parse({ ...readSettings(store), ...stripUndefined(patch) });
  store.db.transaction(() => {
    for (const key of Object.keys(patch) as SettingKey[]) {
      if (patch[key] !== undefined) store.settings.set(key, merged[key]);
    }
  })();
  return merged;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
