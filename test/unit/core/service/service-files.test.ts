import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { launchdPlist } from '../../../../src-main/core/service/launchd';
import type { ServiceSpec } from '../../../../src-main/core/service/spec';
import { systemdUnit, systemdWord } from '../../../../src-main/core/service/systemd';
import {
  schtasks,
  taskSchedulerXml,
  taskXmlBytes,
  windowsArg,
} from '../../../../src-main/core/service/task-scheduler';

const spec = (over: Partial<ServiceSpec> = {}): ServiceSpec => ({
  program: '/usr/bin/node',
  args: ['/opt/postdesk/bin/postdesk.js', 'executor', '--name', 'Studio PC', '--folder', '/srv/clips 100%'],
  env: { POSTDESK_API_KEY_FILE: '/home/me/.config/postdesk-key', PATH: '/usr/bin:/bin' },
  workingDirectory: '/home/me',
  stopGraceSeconds: 30,
  ...over,
});

/** The little of the DOM these tests read (the Node config has no DOM types). */
interface XmlNode {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly children: ArrayLike<XmlNode> & Iterable<XmlNode>;
  querySelector(selector: string): XmlNode | null;
  getElementsByTagName(name: string): ArrayLike<XmlNode>;
}

/** Parses XML as a browser would; a document that is not well formed has a parsererror element. */
function parseXml(text: string): XmlNode {
  const Parser = new JSDOM('').window.DOMParser as new () => {
    parseFromString(text: string, type: string): XmlNode;
  };
  const doc = new Parser().parseFromString(text, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}

describe('systemd user unit', () => {
  it('restarts on failure, gives SIGTERM to the executor alone and waits past its grace', () => {
    const unit = systemdUnit(spec());
    expect(unit).toContain(
      'ExecStart=/usr/bin/node /opt/postdesk/bin/postdesk.js executor --name "Studio PC" --folder "/srv/clips 100%%"\n',
    );
    for (const line of [
      'Restart=on-failure',
      'KillMode=mixed',
      'KillSignal=SIGTERM',
      'TimeoutStopSec=45',
      'UMask=0077',
      'Environment=POSTDESK_API_KEY_FILE=/home/me/.config/postdesk-key',
      'Environment=PATH=/usr/bin:/bin',
      'WantedBy=default.target',
    ])
      expect(unit.split('\n')).toContain(line);
  });

  it('quotes what the unit syntax would read otherwise, and refuses a line break', () => {
    expect(systemdWord('a b', 'exec')).toBe('"a b"');
    expect(systemdWord('$HOME', 'exec')).toBe('"$$HOME"');
    expect(systemdWord('$HOME', 'env')).toBe('"$HOME"');
    expect(systemdWord('say "hi" \\o/', 'exec')).toBe('"say \\"hi\\" \\\\o/"');
    expect(systemdWord('%h', 'env')).toBe('%%h');
    expect(() => systemdWord('a\nExecStartPre=/bin/evil', 'exec')).toThrow(/line break/);
  });

  it('never carries a key or any variable beyond the few it needs', () => {
    expect(() => systemdUnit(spec({ env: { POSTDESK_API_KEY: 'pd_live_secret' } }))).toThrow(
      /does not carry POSTDESK_API_KEY/,
    );
  });
});

describe('launchd agent plist', () => {
  it('is well-formed, keeps the agent alive after a failed exit only, and waits past the grace', () => {
    const doc = parseXml(launchdPlist(spec({ logFile: '/Users/me/Library/Logs/Postdesk/executor.log' })));
    const dict = doc.querySelector('plist > dict') as XmlNode;
    const entries = new Map<string, XmlNode>();
    const kids = [...dict.children];
    for (let i = 0; i < kids.length; i += 2) entries.set(kids[i]?.textContent ?? '', kids[i + 1] as XmlNode);
    expect(entries.get('Label')?.textContent).toBe('app.postdesk.executor');
    expect([...(entries.get('ProgramArguments')?.children ?? [])].map((e) => e.textContent)).toEqual([
      '/usr/bin/node',
      ...spec().args,
    ]);
    expect(entries.get('KeepAlive')?.querySelector('key')?.textContent).toBe('SuccessfulExit');
    expect(entries.get('KeepAlive')?.querySelector('false')).not.toBeNull();
    expect(entries.get('RunAtLoad')?.tagName).toBe('true');
    expect(entries.get('ExitTimeOut')?.textContent).toBe('45');
    expect(entries.get('Umask')?.textContent).toBe(String(0o077));
    const env = [...(entries.get('EnvironmentVariables')?.children ?? [])].map((e) => e.textContent);
    expect(env).toEqual(['POSTDESK_API_KEY_FILE', '/home/me/.config/postdesk-key', 'PATH', '/usr/bin:/bin']);
  });

  it('escapes XML in arguments', () => {
    const text = launchdPlist(spec({ args: ['executor', '--name', 'A & B <co>'] }));
    expect(text).toContain('<string>A &amp; B &lt;co&gt;</string>');
    parseXml(text);
  });
});

describe('Task Scheduler entry', () => {
  it('is well-formed, starts at logon without elevation, has no time limit and restarts after a failure', () => {
    const text = taskSchedulerXml(
      spec({ program: 'C:\\Program Files\\nodejs\\node.exe', env: {}, workingDirectory: 'C:\\Users\\me' }),
      'PC\\me',
    );
    const doc = parseXml(text);
    const one = (sel: string) => doc.getElementsByTagName(sel)[0]?.textContent;
    expect(one('UserId')).toBe('PC\\me');
    expect(one('LogonType')).toBe('InteractiveToken');
    expect(one('RunLevel')).toBe('LeastPrivilege');
    expect(one('ExecutionTimeLimit')).toBe('PT0S');
    expect(one('Interval')).toBe('PT1M');
    expect(one('Command')).toBe('"C:\\Program Files\\nodejs\\node.exe"');
    expect(one('Arguments')).toBe(
      '/opt/postdesk/bin/postdesk.js executor --name "Studio PC" --folder "/srv/clips 100%"',
    );
    expect(text).toContain('\r\n');
  });

  it('refuses environment variables: a task has none of its own', () => {
    expect(() => taskSchedulerXml(spec(), 'PC\\me')).toThrow(/postdesk login/);
  });

  it('quotes arguments for the C runtime: backslashes doubled only before a quote', () => {
    expect(windowsArg('plain')).toBe('plain');
    expect(windowsArg('')).toBe('""');
    expect(windowsArg('C:\\a b\\')).toBe('"C:\\a b\\\\"');
    expect(windowsArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(windowsArg('a\\"b c')).toBe('"a\\\\\\"b c"');
  });

  it('schtasks gets the XML file and the task name; the file is UTF-16 with its byte order mark', () => {
    expect(schtasks.create('C:\\Temp\\t.xml')).toEqual([
      '/Create',
      '/TN',
      '\\Postdesk\\Executor',
      '/XML',
      'C:\\Temp\\t.xml',
      '/F',
    ]);
    expect(schtasks.delete()).toEqual(['/Delete', '/TN', '\\Postdesk\\Executor', '/F']);
    const bytes = taskXmlBytes('<?xml version="1.0" encoding="UTF-16"?>');
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xfe, 0x3c, 0x00]);
  });
});
