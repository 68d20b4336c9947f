import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliScriptOf, commandLinePort } from '../../../src-main/app/command-line';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('the desktop app’s postdesk command', () => {
  it('runs the CLI unpacked beside app.asar when packaged, and the checkout’s launcher in development', () => {
    expect(
      cliScriptOf({ isPackaged: true, getAppPath: () => '/x' }, { resourcesPath: '/opt/Postdesk/resources' }),
    ).toBe('/opt/Postdesk/resources/app.asar.unpacked/bin/postdesk.js');
    const dev = cliScriptOf({ isPackaged: false, getAppPath: () => ROOT }, { resourcesPath: '/unused' });
    expect(dev).toBe(join(ROOT, 'bin', 'postdesk.js'));
    expect(existsSync(dev)).toBe(true);
  });

  it('gives Windows a way to the user PATH, and no other platform one', () => {
    const app = { isPackaged: true, getAppPath: () => '/x' };
    const win = commandLinePort(app, {
      resourcesPath: 'C:\\P\\resources',
      platform: 'win32',
      env: {},
    }).host();
    expect(win.userPath).toBeDefined();
    expect(win.cliScript).toContain('app.asar.unpacked');
    const linux = commandLinePort(app, {
      resourcesPath: '/opt/P/resources',
      platform: 'linux',
      env: {},
    }).host();
    expect(linux.userPath).toBeUndefined();
  });
});
