import { homedir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'electron';
import type { CommandLinePort } from '../core/bridge/command-line';
import { nodeOnPath, terminalPath } from '../core/command-line/install';
import { windowsUserPath } from '../core/command-line/windows-path';

/**
 * The CLI the launcher runs. Packaged: `bin/postdesk.js` and the built CLI are unpacked beside app.asar
 * (electron-builder.config.cjs), because the user's Node cannot read inside an asar archive, and the packaged
 * Electron cannot stand in for Node (its RunAsNode fuse is off). In development: the checkout's own launcher.
 */
export function cliScriptOf(
  app: Pick<App, 'isPackaged' | 'getAppPath'>,
  proc: Pick<NodeJS.Process, 'resourcesPath'>,
): string {
  return app.isPackaged
    ? join(proc.resourcesPath, 'app.asar.unpacked', 'bin', 'postdesk.js')
    : join(app.getAppPath(), 'bin', 'postdesk.js');
}

/** `commandLine:*` for the desktop app: where this copy of Postdesk is, read at each call. */
export function commandLinePort(
  app: Pick<App, 'isPackaged' | 'getAppPath'>,
  proc: Pick<NodeJS.Process, 'resourcesPath' | 'platform' | 'env'>,
): CommandLinePort {
  return {
    host: () => ({
      platform: proc.platform,
      home: homedir(),
      env: proc.env,
      cliScript: cliScriptOf(app, proc),
      ...(proc.platform === 'win32' ? { userPath: windowsUserPath() } : {}),
      nodeVersion: nodeOnPath(terminalPath(proc.env, proc.platform), proc.platform),
    }),
  };
}
