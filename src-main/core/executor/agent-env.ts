/**
 * Variables an agent inherits from the executor; everything else (keys, tokens, proxies) stays out.
 * docs/executor.md lists the same names, and a test holds the two together.
 */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'SYSTEMROOT', 'WINDIR'];
/** Locale categories (LC_ALL, LC_CTYPE, LC_MESSAGES, LC_TIME …): they only shape how text and dates are shown. */
const INHERITED_PREFIX = 'LC_';

/** Never passed on, whatever the agent's configuration says: where the executor's credentials come from. */
const WITHHELD = new Set(['POSTDESK_API_KEY', 'POSTDESK_API_KEY_FILE', 'POSTDESK_RUN_TOKEN']);

export interface AgentEnvInput {
  readonly runDir: string;
  readonly outputFile: string;
  readonly taskFile: string;
  readonly runJsonFile: string;
  /** The user's folder for this run's automation (local settings), as POSTDESK_FOLDER. */
  readonly folder?: string | undefined;
  /** Extra variables from the agent's configuration (for example its own model key). */
  readonly extra?: Readonly<Record<string, string>>;
  /** Values that must never reach the agent, under any name: the API key and the run token. */
  readonly secrets: readonly (string | undefined)[];
}

/** A minimal environment for an agent process, built from an allowlist rather than by subtraction. */
export function buildAgentEnv(
  input: AgentEnvInput,
  parent: Readonly<NodeJS.ProcessEnv> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(parent)) {
    if (v === undefined) continue;
    if (INHERITED.includes(name) || (name.startsWith(INHERITED_PREFIX) && /^LC_[A-Z]+$/.test(name)))
      env[name] = v;
  }
  Object.assign(env, input.extra ?? {});
  env.POSTDESK_RUN_DIR = input.runDir;
  env.POSTDESK_OUTPUT = input.outputFile;
  env.POSTDESK_TASK = input.taskFile;
  env.POSTDESK_RUN_JSON = input.runJsonFile;
  if (input.folder) env.POSTDESK_FOLDER = input.folder;
  const secrets = input.secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  for (const [name, value] of Object.entries(env)) {
    const leaks = secrets.some((s) => value.includes(s));
    if (leaks || WITHHELD.has(name)) delete env[name];
  }
  return env;
}
