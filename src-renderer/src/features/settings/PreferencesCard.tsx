import type { SettingsPatch, SettingsView } from '../../../../src-shared/ipc';
import type { Clock, Density, Theme, WeekStart } from '../../../../src-shared/settings';
import { describeError } from '../../app/describe-error';
import { formatTime } from '../../app/format';
import { Field } from '../../components/Field';
import { Segmented } from '../../components/Segmented';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import './preferences.css';
import { SettingsCard } from './SettingsCard';

/** Every zone the browser knows; the computer's is the empty choice. */
const ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();
const computerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Records, so a choice added to src-shared/settings.ts must get its words here. */
const WEEK: Readonly<Record<WeekStart, string>> = { monday: 'Monday', sunday: 'Sunday' };
const CLOCK: Readonly<Record<Clock, string>> = { auto: 'Automatic', '12h': '12-hour', '24h': '24-hour' };
const THEME: Readonly<Record<Theme, string>> = { system: 'System', light: 'Light', dark: 'Dark' };
const DENSITY: Readonly<Record<Density, string>> = { comfortable: 'Comfortable', compact: 'Compact' };

/** The settings chosen among a few words each. */
type ChoiceKey = 'week_start' | 'clock' | 'theme' | 'density';
const patchOf = <K extends ChoiceKey>(key: K, value: SettingsView[K]): SettingsPatch => {
  const patch: Partial<Pick<SettingsView, ChoiceKey>> = {};
  patch[key] = value;
  return patch;
};
const optionsOf = <T extends string>(words: Readonly<Record<T, string>>) =>
  (Object.keys(words) as T[]).map((value) => ({ value, label: words[value] }));

/** How dates show and the window looks; each choice is saved and applied at once. */
export function PreferencesCard({ settings }: { readonly settings: SettingsView }) {
  const update = useSettingsStore((s) => s.update);
  const save = async (patch: SettingsPatch) => {
    const r = await update(patch);
    if (!r.ok) toast('error', `Preference not saved: ${describeError(r.error, 'update')}`);
  };
  /** One of the small choices: its label names the field and the radio group alike. */
  const choice = <K extends ChoiceKey>(
    key: K,
    label: string,
    words: Readonly<Record<SettingsView[K], string>>,
  ) => (
    <div className="field">
      <span className="field__label">{label}</span>
      <Segmented
        label={label}
        value={settings[key]}
        options={optionsOf(words)}
        onChange={(v) => void save(patchOf(key, v))}
      />
    </div>
  );
  return (
    <SettingsCard id="preferences" title="Preferences" body="preferences">
      <Field
        label="Time zone"
        hint={`Dates and times show, and are picked, in this zone. Now ${formatTime(new Date().toISOString())}.`}
      >
        {({ id, describedBy }) => (
          <select
            id={id}
            className="input"
            aria-describedby={describedBy}
            value={settings.time_zone ?? ''}
            onChange={(e) => void save({ time_zone: e.target.value || null })}
          >
            <option value="">This computer’s ({computerZone()})</option>
            {ZONES.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        )}
      </Field>
      {choice('week_start', 'Week starts on', WEEK)}
      {choice('clock', 'Time format', CLOCK)}
      {choice('theme', 'Theme', THEME)}
      {choice('density', 'Density', DENSITY)}
    </SettingsCard>
  );
}
