import { checkServiceEnv, stopTimeoutSeconds, type ServiceSpec } from './spec';

export const LAUNCHD_LABEL = 'app.postdesk.executor';

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The launchd agent plist: started at login and kept alive when it exits with a failure (a clean exit
 * after SIGTERM stays stopped). launchd sends SIGTERM and waits ExitTimeOut seconds before SIGKILL.
 */
export function launchdPlist(spec: ServiceSpec): string {
  checkServiceEnv(spec.env);
  const str = (s: string) => `<string>${xml(s)}</string>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${str(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...[spec.program, ...spec.args].map((a) => `    ${str(a)}`),
    '  </array>',
    `  <key>WorkingDirectory</key>${str(spec.workingDirectory)}`,
  ];
  const env = Object.entries(spec.env);
  if (env.length > 0) {
    lines.push('  <key>EnvironmentVariables</key>', '  <dict>');
    for (const [k, v] of env) lines.push(`    <key>${xml(k)}</key>${str(v)}`);
    lines.push('  </dict>');
  }
  lines.push(
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key><false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key><integer>10</integer>',
    `  <key>ExitTimeOut</key><integer>${stopTimeoutSeconds(spec)}</integer>`,
    '  <key>ProcessType</key><string>Background</string>',
    '  <key>Umask</key><integer>63</integer>',
  );
  if (spec.logFile)
    lines.push(
      `  <key>StandardOutPath</key>${str(spec.logFile)}`,
      `  <key>StandardErrorPath</key>${str(spec.logFile)}`,
    );
  lines.push('</dict>', '</plist>', '');
  return lines.join('\n');
}
