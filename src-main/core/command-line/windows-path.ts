import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { UserPathPort } from './install';

type ExecFile = (
  file: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; timeout: number; windowsHide: boolean },
) => Promise<{ stdout: string }>;

const POWERSHELL = 'powershell.exe';
const ARGS = ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command'] as const;

/** Read as stored, `%USERPROFILE%` and the like unexpanded, so writing it back keeps them. */
const GET =
  "$k = Get-Item -LiteralPath 'HKCU:\\Environment'; [Console]::Out.Write($k.GetValue('Path', '', 'DoNotExpandEnvironmentNames'))";

/**
 * Written as REG_EXPAND_SZ (as Windows keeps the user PATH), then a dummy variable set and cleared through .NET,
 * whose call broadcasts WM_SETTINGCHANGE: Explorer, and the terminals it starts from then on, see the new PATH.
 * The value arrives in an environment variable, never in the script's text.
 */
const SET = [
  "Set-ItemProperty -LiteralPath 'HKCU:\\Environment' -Name 'Path' -Value $env:POSTDESK_USER_PATH -Type ExpandString",
  "[Environment]::SetEnvironmentVariable('POSTDESK_PATH_CHANGED', '1', 'User')",
  "[Environment]::SetEnvironmentVariable('POSTDESK_PATH_CHANGED', $null, 'User')",
].join('; ');

/** The user's PATH in HKCU\Environment, through Windows PowerShell (present on every supported Windows). */
export function windowsUserPath(
  run: ExecFile = promisify(execFile) as unknown as ExecFile,
  env: NodeJS.ProcessEnv = process.env,
): UserPathPort {
  const opts = (extra: NodeJS.ProcessEnv = {}) => ({
    env: { ...env, ...extra },
    timeout: 30_000,
    windowsHide: true,
  });
  return {
    async get() {
      return (await run(POWERSHELL, [...ARGS, GET], opts())).stdout;
    },
    async set(value) {
      await run(POWERSHELL, [...ARGS, SET], opts({ POSTDESK_USER_PATH: value }));
    },
  };
}
