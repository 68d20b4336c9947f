import { z } from 'zod';
import { LocalFolderPath } from '../../../src-shared/ipc/settings';
import type { Store } from '../store/store';

/** How an agent type is started by the executor. Spawned without a shell. */
export const AgentCommand = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
});
export type AgentCommand = z.infer<typeof AgentCommand>;

const HttpUrl = z.url({ protocol: /^https?$/ });

/**
 * How agent programs are confined: `auto` confines where the OS offers a way (bubblewrap on Linux,
 * sandbox-exec on macOS) and says in the run log when it cannot; `required` fails such a run instead.
 */
export const AGENT_CONFINEMENT_MODES = ['off', 'auto', 'required'] as const;
export type AgentConfinementMode = (typeof AGENT_CONFINEMENT_MODES)[number];

/** Every user setting, with its default. Other modules read these; only this schema declares them. */
export const Settings = z.object({
  /** The service. Null until chosen: `--base-url`, `postdesk config set baseUrl …` or `--sandbox`. */
  baseUrl: HttpUrl.nullable().default(null),
  /** Fallback host tried when the base host cannot be connected to. */
  aliasUrl: HttpUrl.nullable().default(null),
  proxyUrl: z.url().nullable().default(null),
  executorName: z.string().min(1).max(100).nullable().default(null),
  agentCommands: z.record(z.string().min(1).max(50), AgentCommand).default({}),
  /** How many automation runs the executor runs at once. */
  concurrency: z.number().int().min(1).max(16).default(1),
  /** Runs missed while the machine was off: run the latest, skip them, or run them all. */
  missedRunPolicy: z.enum(['latest', 'skip', 'all']).default('latest'),
  /** How late a run may start and still count as on time. */
  graceWindowMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  updateChannel: z.enum(['stable', 'beta']).default('stable'),
  startAtLogin: z.boolean().default(false),
  /** An ffmpeg/ffprobe binary to use; null: the one shipped with Postdesk, else the first on PATH. */
  ffmpegPath: z.string().trim().min(1).max(4096).nullable().default(null),
  ffprobePath: z.string().trim().min(1).max(4096).nullable().default(null),
  /**
   * The built-in folder agent's folder per automation id (`~/` allowed). Only the user sets it, here or in
   * Settings: nothing the service sends (instructions, skills) names a folder.
   */
  automationFolders: z.record(z.string().min(1).max(200), LocalFolderPath).default({}),
  agentConfinement: z.enum(AGENT_CONFINEMENT_MODES).default('auto'),
  /** A confined agent's network: open by default, since agents call model APIs. */
  agentNetwork: z.boolean().default(true),
  /** Automations (by id) whose folder a confined agent may write to; every other folder is read-only. */
  agentWritableFolders: z.array(z.string().min(1).max(200)).max(500).default([]),
  /** More paths a confined agent may read, such as where the agent program is installed under home. */
  agentReadPaths: z.array(LocalFolderPath).max(100).default([]),
  /** Run directories older than this are removed; failed runs are kept for `failedRunRetentionDays`. */
  runRetentionDays: z.number().int().min(1).max(3650).default(14),
  failedRunRetentionDays: z.number().int().min(1).max(3650).default(30),
  /** At most this many run directories are kept: beyond it the oldest go, failed runs last. */
  runRetentionCount: z.number().int().min(10).max(100_000).default(500),
});
export type Settings = z.infer<typeof Settings>;
export type SettingsPatch = Partial<z.input<typeof Settings>>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(Settings.shape) as SettingKey[];

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
