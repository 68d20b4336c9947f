import { checkServiceEnv, stopTimeoutSeconds, type ServiceSpec } from './spec';

export const SYSTEMD_UNIT_NAME = 'postdesk-executor.service';

/**
 * One word of a unit file: quoted when it needs to be. `%` starts a specifier everywhere; `$` expands a
 * variable in ExecStart only. Line breaks cannot be written at all.
 */
export function systemdWord(word: string, where: 'exec' | 'env'): string {
  if (/[\r\n]/.test(word))
    throw new Error(`a line break cannot be written into a unit file: ${JSON.stringify(word)}`);
  let w = word.replace(/%/g, '%%');
  if (where === 'exec') w = w.replace(/\$/g, '$$$$');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) && w.length > 0) return w;
  return `"${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The systemd user unit. SIGTERM goes to the executor alone (KillMode=mixed): it lets running runs
 * finish, then stops their agents itself and reports them failed; only after TimeoutStopSec does systemd
 * kill what is left. It restarts on failure, at most 10 times in 5 minutes. The unit holds no key: the
 * daemon reads it from the keychain, or from the file POSTDESK_API_KEY_FILE names.
 */
export function systemdUnit(spec: ServiceSpec): string {
  checkServiceEnv(spec.env);
  const exec = [spec.program, ...spec.args].map((w) => systemdWord(w, 'exec')).join(' ');
  const env = Object.entries(spec.env).map(([k, v]) => `Environment=${systemdWord(`${k}=${v}`, 'env')}`);
  return [
    '[Unit]',
    'Description=Postdesk executor: runs local automations on this machine',
    'StartLimitIntervalSec=300',
    'StartLimitBurst=10',
    '',
    '[Service]',
    'Type=exec',
    `ExecStart=${exec}`,
    `WorkingDirectory=${systemdWord(spec.workingDirectory, 'env')}`,
    ...env,
    'Restart=on-failure',
    'RestartSec=10',
    'KillMode=mixed',
    'KillSignal=SIGTERM',
    `TimeoutStopSec=${stopTimeoutSeconds(spec)}`,
    'UMask=0077',
    'SyslogIdentifier=postdesk-executor',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
