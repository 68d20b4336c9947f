import { create } from 'zustand';
import type { SettingsView } from '../../../src-shared/ipc';
import type { Clock, Density, Theme, WeekStart } from '../../../src-shared/settings';
import { setDatePreferences } from './format';

/** The Preferences of the settings, as the screens read them. */
export interface Preferences {
  readonly timeZone: string | null;
  readonly weekStart: WeekStart;
  readonly clock: Clock;
  readonly theme: Theme;
  readonly density: Density;
}

const DEFAULTS: Preferences = {
  timeZone: null,
  weekStart: 'monday',
  clock: 'auto',
  theme: 'system',
  density: 'comfortable',
};

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');
const resolve = (t: Theme): 'light' | 'dark' =>
  t === 'system' ? (darkQuery().matches ? 'dark' : 'light') : t;

/**
 * Screens that format dates themselves (the calendar) or read the theme's colours (charts) subscribe here;
 * format.ts is updated first. `shownTheme`: the theme on screen, the OS's for `system`.
 */
export const usePreferencesStore = create<Preferences & { readonly shownTheme: 'light' | 'dark' }>()(() => ({
  ...DEFAULTS,
  shownTheme: 'light',
}));

function showTheme(theme: Theme): void {
  const shown = resolve(theme);
  document.documentElement.dataset.theme = shown;
  if (usePreferencesStore.getState().shownTheme !== shown)
    usePreferencesStore.setState({ shownTheme: shown });
}

/** Before the first render: the OS's theme, followed as it changes while the preference is `system`. */
export function installTheme(): void {
  showTheme(usePreferencesStore.getState().theme);
  darkQuery()?.addEventListener('change', () => showTheme(usePreferencesStore.getState().theme));
}

/**
 * Applies the settings' preferences: the date formatters, the root's `data-density`, then the store (so a
 * screen re-rendering reads the new formatters), then the root's `data-theme` (tokens.css).
 */
export function applyPreferences(s: Readonly<SettingsView>): void {
  const p: Preferences = {
    timeZone: s.time_zone,
    weekStart: s.week_start,
    clock: s.clock,
    theme: s.theme,
    density: s.density,
  };
  setDatePreferences(p);
  document.documentElement.dataset.density = p.density;
  const now = usePreferencesStore.getState();
  if ((Object.keys(p) as (keyof Preferences)[]).some((k) => now[k] !== p[k])) usePreferencesStore.setState(p);
  showTheme(p.theme);
}
