import { z } from 'zod';
import { LIMITS } from '../api/limits';
import { event, invoke } from './define';
import { NoInput } from './common';
import { UpdateChannel } from './updates';

/** The executor's policy for runs missed while it was off: run the latest, skip them, or run them all. */
export const MISSED_RUN_POLICIES = ['latest', 'skip', 'all'] as const;

export const AgentCommand = z.object({
  agent_type: z.string().min(1).max(LIMITS.agentType),
  /** The program, run without a shell. */
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(4096)).max(100),
});
export type AgentCommand = z.infer<typeof AgentCommand>;

/** A folder on this computer: absolute, or under the home folder (`~/…`). */
export const LocalFolderPath = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .regex(/^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/, 'must be a full path (like /home/me/clips or ~/clips)');

/** The built-in folder agent's folder for one automation: the user's choice on this computer, never the service's. */
export const AutomationFolder = z.object({
  automation_id: z.string().min(1).max(200),
  folder: LocalFolderPath,
});
export type AutomationFolder = z.infer<typeof AutomationFolder>;

/**
 * The settings the UI shows and edits: the bridge's snake_case view of src-main/core/config/settings.ts
 * (which stays the one place that defines defaults). Secrets are not settings: see `secrets`.
 */
export const SettingsView = z.object({
  /** Null until chosen (Connect, or "Try offline"). */
  base_url: z.url({ protocol: /^https?$/ }).nullable(),
  alias_url: z.url({ protocol: /^https?$/ }).nullable(),
  proxy_url: z.url().nullable(),
  executor_name: z.string().min(1).max(LIMITS.executorName).nullable(),
  agent_commands: z.array(AgentCommand).max(50),
  concurrency: z.number().int().min(1).max(16),
  missed_run_policy: z.enum(MISSED_RUN_POLICIES),
  /** Start Postdesk (in the tray) at login; off by default. The desktop app applies it. */
  start_at_login: z.boolean(),
  /** Which releases the desktop app updates from. */
  update_channel: UpdateChannel,
  /** An ffmpeg/ffprobe binary to use; null: the bundled one, else the first on PATH. */
  ffmpeg_path: z.string().trim().min(1).max(4096).nullable(),
  ffprobe_path: z.string().trim().min(1).max(4096).nullable(),
  /** Which folder the built-in folder agent publishes from, per automation. */
  automation_folders: z.array(AutomationFolder).max(500),
  /** Read-only: where this host writes its log (the desktop app's rotating file); null where it keeps none. */
  log_file: z.string().max(4096).nullable(),
});
export type SettingsView = z.infer<typeof SettingsView>;

export const SettingsPatch = SettingsView.omit({ log_file: true })
  .partial()
  .refine((p) => Object.keys(p).length > 0, {
    message: 'change at least one setting',
  });
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/**
 * The settings that decide which programs Postdesk runs and which files it publishes. A change to one of
 * them from the page is applied only once the user confirms it outside the page (the desktop app's own
 * dialog, or the terminal that started `postdesk web`); `postdesk config set` changes them directly.
 */
export const GUARDED_SETTINGS = [
  'agent_commands',
  'ffmpeg_path',
  'ffprobe_path',
  'automation_folders',
  // Where requests go is where the stored API key goes: a page must not be able to send it elsewhere.
  'base_url',
  'alias_url',
  'proxy_url',
] as const;
export type GuardedSetting = (typeof GUARDED_SETTINGS)[number];
/** The `code` of the `forbidden` error a guarded change gets when it was not confirmed; its message says why. */
export const NOT_CONFIRMED_CODE = 'NOT_CONFIRMED';

export const settings = {
  get: invoke(NoInput, SettingsView),
  update: invoke(SettingsPatch, SettingsView),
  didChange: event(SettingsView),
} as const;
