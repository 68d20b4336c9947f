import { markPageChosenAddress } from '../../core/config/destination';
import type { Command } from 'commander';
import { SETTING_KEYS, Settings, type SettingKey } from '../../../src-shared/settings';
import { ValidationError, toFieldIssue } from '../../core/api/errors';
import { moveProxyPasswordToKeychain, proxyUrlForDisplay, saveProxyUrl } from '../../core/config/proxy';
import type { CliDeps } from '../context';
import { commandGroup, defaultCommand } from '../command-group';

function keyOf(name: string): SettingKey {
  if (!(SETTING_KEYS as string[]).includes(name)) {
    throw new ValidationError(
      [{ path: 'key', message: `"${name}" is not a setting; one of ${SETTING_KEYS.join(', ')}` }],
      null,
      'argument',
    );
  }
  return name as SettingKey;
}

/** Values are JSON when they parse as JSON (numbers, booleans, null, objects), else plain strings. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function registerConfigCommand(program: Command, deps: CliDeps): void {
  const config = commandGroup(program, 'config', 'show or change settings (kept in the local store)');
  defaultCommand(config, 'show', 'every setting with its value').action(
    async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const local = deps.local();
      await moveProxyPasswordToKeychain(local);
      const s = { ...local.settings.get(), proxyUrl: await proxyUrlForDisplay(local) };
      out.result(s, () => out.fields(SETTING_KEYS.map((k) => [k, JSON.stringify(s[k])])));
    },
  );
  config
    .command('set <key> <value>')
    .description('set a setting (value as JSON when it parses, e.g. 4, true, null, {"a":1})')
    .action(async (name: string, value: string, _opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const key = keyOf(name);
      const field = Settings.shape[key];
      const first = field.safeParse(valueOf(value));
      // "123" for a text setting: JSON made it a number, but the text itself is fine.
      const parsed = first.success ? first : field.safeParse(value);
      if (!parsed.success) {
        const issues = first
          .error!.issues.map(toFieldIssue)
          .map((i) => ({ ...i, path: [key, i.path].filter(Boolean).join('.') }));
        throw new ValidationError(issues, null, 'setting');
      }
      const local = deps.local();
      const s =
        key === 'proxyUrl'
          ? await saveProxyUrl(local, parsed.data as Settings['proxyUrl'])
          : local.settings.update({ [key]: parsed.data });
      // Typed here, the address is the person's own: the environment's key may go to it (destination.ts).
      if (key === 'baseUrl') markPageChosenAddress(local.store, null);
      const shown = key === 'proxyUrl' ? await proxyUrlForDisplay(local) : s[key];
      out.result({ [key]: shown }, () => out.line(`${key} = ${JSON.stringify(shown)}`));
    });
  config
    .command('unset <key>')
    .description('back to the default')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const key = keyOf(name);
      const local = deps.local();
      if (key === 'proxyUrl') await saveProxyUrl(local, null);
      if (key === 'baseUrl') markPageChosenAddress(local.store, null);
      local.store.settings.delete(key);
      const s = local.settings.get();
      out.result({ [key]: s[key] }, () => out.line(`${key} = ${JSON.stringify(s[key])} (default)`));
    });
}
