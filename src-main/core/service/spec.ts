/** What every OS's service entry says: the same command, environment and stop grace. */
export interface ServiceSpec {
  /** The Node binary that runs the CLI. */
  readonly program: string;
  /** The CLI entry, `executor`, and its flags. */
  readonly args: readonly string[];
  /** Never the key: at most the path of a key file, the data directory and PATH. */
  readonly env: Readonly<Record<string, string>>;
  readonly workingDirectory: string;
  /** The executor's own SIGTERM grace (`--stop-grace`); the OS waits longer before it kills. */
  readonly stopGraceSeconds: number;
  /** Where launchd writes the daemon's output (systemd has the journal, Windows the task history). */
  readonly logFile?: string;
}

/** Seconds the service manager waits after SIGTERM: the executor's grace, plus time to report the runs it fails. */
export const stopTimeoutSeconds = (spec: Pick<ServiceSpec, 'stopGraceSeconds'>): number =>
  spec.stopGraceSeconds + 15;

/** Names of variables a service entry may carry; anything else (a key above all) is refused. */
export const SERVICE_ENV = ['POSTDESK_API_KEY_FILE', 'POSTDESK_DATA_DIR', 'PATH', 'LANG'] as const;

export function checkServiceEnv(env: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(env)) {
    if (!(SERVICE_ENV as readonly string[]).includes(name))
      throw new Error(`a service entry does not carry ${name}; only ${SERVICE_ENV.join(', ')}`);
  }
}
