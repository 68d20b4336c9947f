import { z } from 'zod';
import { LIMITS, LOCAL_PATH_MAX as PATH_MAX } from './api/limits';
import { ToolName, ToolPolicy } from './assistant';

/** The executor's policy for runs missed while it was off: run the latest, skip them, or run them all. */
export const MISSED_RUN_POLICIES = ['latest', 'skip', 'all'] as const;
export type MissedRunPolicy = (typeof MISSED_RUN_POLICIES)[number];

/** Which releases the desktop app updates from. */
export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export const UpdateChannel = z.enum(UPDATE_CHANNELS);
export type UpdateChannel = z.infer<typeof UpdateChannel>;

/** A folder on this computer: absolute, or under the home folder (`~/…`). */
export const LocalFolderPath = z
  .string()
  .trim()
  .min(1)
  .max(PATH_MAX)
  .regex(/^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/, 'must be a full path (like /home/me/clips or ~/clips)');

export const AgentType = z.string().min(1).max(LIMITS.agentType);
/**
 * The agents built into Postdesk, which need nothing configured: `card` draws a caption card (no AI, no
 * folder), `folder` publishes the next file of the automation's folder.
 */
export const BUILT_IN_AGENTS = ['card', 'folder'] as const;
export type BuiltInAgent = (typeof BUILT_IN_AGENTS)[number];

/** What decides which agent runs an automation on this computer. */
export interface AgentChoices {
  /** `automationAgents`: the user's choice per automation. */
  readonly agents: Readonly<Record<string, string>>;
  /** `automationFolders`: the folder agent's folder per automation. */
  readonly folders: Readonly<Record<string, string>>;
  /** The agent types of `agentCommands`. */
  readonly commands: readonly string[];
  /** Connected to the offline sandbox, whose demo automations must work out of the box. */
  readonly demo: boolean;
  /** A folder for every automation (`postdesk executor --folder`). */
  readonly folder?: string | undefined;
}

/**
 * Which agent runs an automation, as the executor picks it (one rule for the executor and the screen that
 * shows it): the user's choice; else, with the offline sandbox and nothing set up (no folder, no agent
 * command), the built-in caption card; else the executor's own agent: the only configured agent command, or
 * the built-in folder agent when there is none. `type` null: several commands, and none chosen.
 */
export function agentOf(
  automationId: string,
  c: AgentChoices,
): { readonly type: string | null; readonly source: 'chosen' | 'demo' | 'executor' } {
  if (Object.hasOwn(c.agents, automationId))
    return { type: c.agents[automationId] as string, source: 'chosen' };
  const noFolder = !Object.hasOwn(c.folders, automationId) && c.folder === undefined;
  if (c.demo && noFolder && c.commands.length === 0) return { type: 'card', source: 'demo' };
  const type =
    c.commands.length === 0 ? 'folder' : c.commands.length === 1 ? (c.commands[0] as string) : null;
  return { type, source: 'executor' };
}
export const AutomationId = z.string().min(1).max(200);
const AgentArgs = z.array(z.string().max(PATH_MAX)).max(100);
/** How an agent type is started by the executor: the program, run without a shell, and its arguments. */
export const AgentProgram = z.object({
  command: z.string().min(1).max(PATH_MAX),
  args: AgentArgs.default([]),
});
export type AgentProgram = z.infer<typeof AgentProgram>;

/** The agent commands the page lists, one per agent type. */
export const AgentCommand = z.object({
  agent_type: AgentType,
  command: AgentProgram.shape.command,
  args: AgentArgs,
});
export type AgentCommand = z.infer<typeof AgentCommand>;
export const AGENT_COMMANDS_MAX = 50;
export const AUTOMATION_FOLDERS_MAX = 500;

/**
 * How agent programs are confined: `auto` confines where the OS offers a way (bubblewrap on Linux,
 * sandbox-exec on macOS) and says in the run log when it cannot; `required` fails such a run instead.
 */
export const AGENT_CONFINEMENT_MODES = ['off', 'auto', 'required'] as const;
export type AgentConfinementMode = (typeof AGENT_CONFINEMENT_MODES)[number];

/** How the screens show dates and look (the Preferences card). `null` zone: the computer's. */
export const WEEK_STARTS = ['monday', 'sunday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
/** `auto`: the computer's language decides between 12- and 24-hour time. */
export const CLOCKS = ['auto', '12h', '24h'] as const;
export type Clock = (typeof CLOCKS)[number];
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DENSITIES = ['comfortable', 'compact'] as const;
export type Density = (typeof DENSITIES)[number];
const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
/** An IANA time zone name this computer knows (like Europe/Paris). */
export const TimeZoneName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'must be a time zone name like Europe/Paris');

const HttpUrl = z.url({ protocol: /^https?$/ });
const ToolPath = z.string().trim().min(1).max(PATH_MAX);
const atMost =
  (n: number) =>
  (r: Readonly<Record<string, unknown>>): boolean =>
    Object.keys(r).length <= n;

/**
 * Every user setting, with its default, under the name the local store keeps it by. This is the one
 * declaration: the bridge's `SettingsView` (src-shared/ipc/settings.ts) is derived from it and
 * `PAGE_SETTINGS` below, and `postdesk config` lists these keys.
 */
export const Settings = z.object({
  /** The zone dates are shown and picked in; null: the computer's. */
  timeZone: TimeZoneName.nullable().default(null),
  weekStart: z.enum(WEEK_STARTS).default('monday'),
  clock: z.enum(CLOCKS).default('auto'),
  theme: z.enum(THEMES).default('system'),
  density: z.enum(DENSITIES).default('comfortable'),
  /** The person put the first-run checklist away (Home); its steps are still ticked from what the service holds. */
  firstRunDismissed: z.boolean().default(false),
  /** The service. Null until chosen: `--base-url`, `postdesk config set baseUrl …` or `--sandbox`. */
  baseUrl: HttpUrl.nullable().default(null),
  /** Fallback host tried when the base host cannot be connected to. */
  aliasUrl: HttpUrl.nullable().default(null),
  proxyUrl: z.url().nullable().default(null),
  executorName: z.string().min(1).max(LIMITS.executorName).nullable().default(null),
  agentCommands: z
    .record(AgentType, AgentProgram)
    .refine(atMost(AGENT_COMMANDS_MAX), `at most ${AGENT_COMMANDS_MAX} agent types`)
    .default({}),
  /** How many automation runs the executor runs at once. */
  concurrency: z.number().int().min(1).max(16).default(1),
  /** Runs missed while the machine was off: run the latest, skip them, or run them all. */
  missedRunPolicy: z.enum(MISSED_RUN_POLICIES).default('latest'),
  /** How late a run may start and still count as on time. */
  graceWindowMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  /**
   * How long after its time a scheduled post may take to show `posted` before the delivery watch marks it "not
   * confirmed" in Posts and says so once.
   */
  deliveryConfirmMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  updateChannel: UpdateChannel.default('stable'),
  /** Start Postdesk (in the tray) at login; off by default. The desktop app applies it. */
  startAtLogin: z.boolean().default(false),
  /** An ffmpeg/ffprobe binary to use; null: the one shipped with Postdesk, else the first on PATH. */
  ffmpegPath: ToolPath.nullable().default(null),
  ffprobePath: ToolPath.nullable().default(null),
  /**
   * The built-in folder agent's folder per automation id (`~/` allowed). Only the user sets it, here or in
   * Settings: nothing the service sends (instructions, skills) names a folder.
   */
  automationFolders: z
    .record(AutomationId, LocalFolderPath)
    .refine(atMost(AUTOMATION_FOLDERS_MAX), `at most ${AUTOMATION_FOLDERS_MAX} folders`)
    .default({}),
  /**
   * Which agent runs an automation (by id): a built-in one (`BUILT_IN_AGENTS`) or an agent type of
   * `agentCommands`. An automation without one runs the executor's own agent, except with the offline
   * sandbox: there one without a folder either runs the caption card, so the demo works out of the box.
   */
  automationAgents: z
    .record(AutomationId, AgentType)
    .refine(atMost(AUTOMATION_FOLDERS_MAX), `at most ${AUTOMATION_FOLDERS_MAX} automations`)
    .default({}),
  agentConfinement: z.enum(AGENT_CONFINEMENT_MODES).default('auto'),
  /** A confined agent's network: open by default, since agents call model APIs. */
  agentNetwork: z.boolean().default(true),
  /** Automations (by id) whose folder a confined agent may write to; every other folder is read-only. */
  agentWritableFolders: z.array(AutomationId).max(AUTOMATION_FOLDERS_MAX).default([]),
  /** More paths a confined agent may read, such as where the agent program is installed under home. */
  agentReadPaths: z.array(LocalFolderPath).max(100).default([]),
  /** Run directories older than this are removed; failed runs are kept for `failedRunRetentionDays`. */
  runRetentionDays: z.number().int().min(1).max(3650).default(14),
  failedRunRetentionDays: z.number().int().min(1).max(3650).default(30),
  /** At most this many run directories are kept: beyond it the oldest go, failed runs last. */
  runRetentionCount: z.number().int().min(10).max(100_000).default(500),
  /**
   * What an AI assistant connected through `postdesk mcp` may do per tool (allow, ask, deny). A tool not
   * named here has its default (src-shared/assistant.ts): allow for reading tools, ask for the others.
   */
  assistantToolPolicies: z.record(ToolName, ToolPolicy).refine(atMost(200), 'at most 200 tools').default({}),
});
export type Settings = z.infer<typeof Settings>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(Settings.shape) as SettingKey[];

/**
 * The settings the page shows, each under the snake_case of its name. `edit`: the page changes it.
 * `confirm`: it decides which programs Postdesk runs, which files it publishes or where the API key goes,
 * so a change from the page is applied only once the user confirms it outside the page (the desktop app's
 * own dialog, or the terminal that started `postdesk web`); `postdesk config set` changes them directly.
 * A setting not listed here stays off the page: only `postdesk config` shows and sets it.
 */
export const PAGE_SETTINGS = {
  timeZone: 'edit',
  weekStart: 'edit',
  clock: 'edit',
  theme: 'edit',
  density: 'edit',
  firstRunDismissed: 'edit',
  baseUrl: 'confirm',
  aliasUrl: 'confirm',
  proxyUrl: 'confirm',
  executorName: 'edit',
  agentCommands: 'confirm',
  concurrency: 'edit',
  missedRunPolicy: 'edit',
  graceWindowMinutes: 'edit',
  startAtLogin: 'edit',
  updateChannel: 'edit',
  ffmpegPath: 'confirm',
  ffprobePath: 'confirm',
  automationFolders: 'confirm',
  automationAgents: 'confirm',
  assistantToolPolicies: 'confirm',
} as const satisfies { readonly [K in SettingKey]?: 'edit' | 'confirm' };
