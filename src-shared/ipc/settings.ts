import { z } from 'zod';
import { event, invoke } from './define';
import { NoInput } from './common';
import { LOCAL_PATH_MAX } from '../api/limits';
import {
  AGENT_COMMANDS_MAX,
  AUTOMATION_FOLDERS_MAX,
  AgentCommand,
  AgentType,
  AutomationId,
  LocalFolderPath,
  PAGE_SETTINGS,
  Settings,
  type AgentProgram,
} from '../settings';

/** The built-in folder agent's folder for one automation: the user's choice on this computer, never the service's. */
export const AutomationFolder = z.object({ automation_id: AutomationId, folder: LocalFolderPath });
export type AutomationFolder = z.infer<typeof AutomationFolder>;

/** Which agent runs one automation on this computer: a built-in one or a configured agent type. */
export const AutomationAgent = z.object({ automation_id: AutomationId, agent_type: AgentType });
export type AutomationAgent = z.infer<typeof AutomationAgent>;

/** How a setting the store keeps as a map is shown to the page: as a list it can edit, and back. */
interface ListedAs<Stored, Item extends z.ZodType> {
  readonly view: z.ZodArray<Item>;
  toView(stored: Readonly<Stored>): z.infer<Item>[];
  fromView(list: readonly z.infer<Item>[]): Stored;
}

const LISTED = {
  agentCommands: {
    view: z.array(AgentCommand).max(AGENT_COMMANDS_MAX),
    toView: (m) =>
      Object.entries(m).map(([agent_type, c]) => ({ agent_type, command: c.command, args: [...c.args] })),
    fromView: (l) =>
      Object.fromEntries(l.map((c) => [c.agent_type, { command: c.command, args: [...c.args] }])),
  } satisfies ListedAs<Record<string, AgentProgram>, typeof AgentCommand>,
  automationFolders: {
    view: z.array(AutomationFolder).max(AUTOMATION_FOLDERS_MAX),
    toView: (m) => Object.entries(m).map(([automation_id, folder]) => ({ automation_id, folder })),
    fromView: (l) => Object.fromEntries(l.map((f) => [f.automation_id, f.folder])),
  } satisfies ListedAs<Record<string, string>, typeof AutomationFolder>,
  automationAgents: {
    view: z.array(AutomationAgent).max(AUTOMATION_FOLDERS_MAX),
    toView: (m) => Object.entries(m).map(([automation_id, agent_type]) => ({ automation_id, agent_type })),
    fromView: (l) => Object.fromEntries(l.map((a) => [a.automation_id, a.agent_type])),
  } satisfies ListedAs<Record<string, string>, typeof AutomationAgent>,
} as const;

type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;
const snake = <S extends string>(s: S): Snake<S> =>
  s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as Snake<S>;

type PageKey = keyof typeof PAGE_SETTINGS;
type Shape = typeof Settings.shape;
type ViewField<K extends PageKey> = K extends keyof typeof LISTED
  ? (typeof LISTED)[K]['view']
  : Shape[K] extends z.ZodDefault<infer Inner>
    ? Inner
    : Shape[K];
type ViewShape = { [K in PageKey as Snake<K>]: ViewField<K> };

const PAGE_KEYS = Object.keys(PAGE_SETTINGS) as PageKey[];
const isListed = (k: PageKey): k is PageKey & keyof typeof LISTED => Object.hasOwn(LISTED, k);
const viewField = (k: PageKey): z.ZodType => {
  if (isListed(k)) return LISTED[k].view;
  const field: z.ZodType = Settings.shape[k];
  // The page always gets every value, and a patch must not fill the settings it leaves out with defaults.
  return field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field;
};

const EditableView = z.object(
  Object.fromEntries(PAGE_KEYS.map((k) => [snake(k), viewField(k)])) as unknown as ViewShape,
);

/** What the host adds to the view: read-only, no patch can set it. */
const HostFacts = z.object({
  /** Where this host writes its log (the desktop app's rotating file); null where it keeps none. */
  log_file: z.string().max(LOCAL_PATH_MAX).nullable(),
});
export type HostFacts = z.infer<typeof HostFacts>;

/**
 * The settings the UI shows and edits: `PAGE_SETTINGS` of src-shared/settings.ts under their snake_case
 * names, with the settings stored as maps shown as lists, and the host's read-only facts. Secrets are not
 * settings: see `secrets`.
 */
export const SettingsView = EditableView.extend(HostFacts.shape);
export type SettingsView = z.infer<typeof SettingsView>;

export const SettingsPatch = EditableView.partial().refine((p) => Object.keys(p).length > 0, {
  message: 'change at least one setting',
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/** The page's view of the stored settings, with the host's facts. */
export function toSettingsView(s: Readonly<Settings>, host: Readonly<HostFacts>): SettingsView {
  const out: Record<string, unknown> = {};
  for (const k of PAGE_KEYS) out[snake(k)] = isListed(k) ? LISTED[k].toView(s[k] as never) : s[k];
  return { ...out, ...host } as SettingsView;
}

/** A patch from the page as a patch of the stored settings; only the fields present are changed. */
export function toSettingsPatch(p: Readonly<SettingsPatch>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const k of PAGE_KEYS) {
    const v = (p as Record<string, unknown>)[snake(k)];
    if (v !== undefined) out[k] = isListed(k) ? LISTED[k].fromView(v as never) : v;
  }
  return out as Partial<Settings>;
}

/** The settings whose change from the page needs the user's confirmation outside it (`PAGE_SETTINGS`). */
export const GUARDED_SETTINGS = PAGE_KEYS.filter((k) => PAGE_SETTINGS[k] === 'confirm').map(
  snake,
) as GuardedSetting[];
export type GuardedSetting = {
  [K in PageKey]: (typeof PAGE_SETTINGS)[K] extends 'confirm' ? Snake<K> : never;
}[PageKey];
/** The `code` of the `forbidden` error a guarded change gets when it was not confirmed; its message says why. */
export const NOT_CONFIRMED_CODE = 'NOT_CONFIRMED';

export const settings = {
  get: invoke(NoInput, SettingsView),
  update: invoke(SettingsPatch, SettingsView),
  didChange: event(SettingsView),
} as const;
