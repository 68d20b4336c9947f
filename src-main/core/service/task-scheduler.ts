import { checkServiceEnv, type ServiceSpec } from './spec';

export const TASK_NAME = '\\Postdesk\\Executor';

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * One argument of a Windows command line, quoted so that the C runtime's parser gives it back unchanged:
 * backslashes are doubled only before a quote.
 */
export function windowsArg(arg: string): string {
  if (arg.length > 0 && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let slashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      slashes += 1;
      continue;
    }
    if (ch === '"') out += '\\'.repeat(slashes * 2 + 1) + '"';
    else out += '\\'.repeat(slashes) + ch;
    slashes = 0;
  }
  return `${out}${'\\'.repeat(slashes * 2)}"`;
}

/**
 * The Task Scheduler entry: at this user's logon, with their rights (no elevation), never stopped for a
 * time limit, restarted every minute after a failure. A task has no environment of its own, so the key
 * comes from the Credential Manager (`postdesk login`).
 */
export function taskSchedulerXml(spec: ServiceSpec, user: string): string {
  checkServiceEnv(spec.env);
  if (Object.keys(spec.env).length > 0)
    throw new Error(
      'a Task Scheduler entry cannot carry environment variables: sign in with `postdesk login` so the key is in the Credential Manager, and keep the default data directory',
    );
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    '    <Description>Postdesk executor: runs local automations on this machine</Description>',
    '  </RegistrationInfo>',
    '  <Triggers>',
    '    <LogonTrigger>',
    '      <Enabled>true</Enabled>',
    `      <UserId>${xml(user)}</UserId>`,
    '    </LogonTrigger>',
    '  </Triggers>',
    '  <Principals>',
    '    <Principal id="Author">',
    `      <UserId>${xml(user)}</UserId>`,
    '      <LogonType>InteractiveToken</LogonType>',
    '      <RunLevel>LeastPrivilege</RunLevel>',
    '    </Principal>',
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
    '    <StartWhenAvailable>true</StartWhenAvailable>',
    '    <RestartOnFailure>',
    '      <Interval>PT1M</Interval>',
    '      <Count>999</Count>',
    '    </RestartOnFailure>',
    '    <Hidden>true</Hidden>',
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${xml(windowsArg(spec.program))}</Command>`,
    `      <Arguments>${xml(spec.args.map(windowsArg).join(' '))}</Arguments>`,
    `      <WorkingDirectory>${xml(spec.workingDirectory)}</WorkingDirectory>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\r\n');
}

/** schtasks's argument lists; the XML is written to a file first (`/XML` takes a path). */
export const schtasks = {
  create: (xmlFile: string) => ['/Create', '/TN', TASK_NAME, '/XML', xmlFile, '/F'],
  run: () => ['/Run', '/TN', TASK_NAME],
  end: () => ['/End', '/TN', TASK_NAME],
  delete: () => ['/Delete', '/TN', TASK_NAME, '/F'],
  query: () => ['/Query', '/TN', TASK_NAME, '/V', '/FO', 'LIST'],
} as const;

/** The file schtasks reads: UTF-16 little-endian with its byte order mark, as the declaration says. */
export function taskXmlBytes(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}
