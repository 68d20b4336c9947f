import type { CommandLineState } from '../../../src-shared/ipc/command-line';
import { NOT_CONFIRMED_CODE } from '../../../src-shared/ipc/settings';
import {
  installLauncher,
  launcherFailureText,
  launcherStatus,
  uninstallLauncher,
  type LauncherHost,
  type LauncherState,
} from '../command-line/install';
import { BridgeFault } from './bridge-fault';
import type { ConfirmPort } from './confirm';

/** The desktop app's `postdesk` launcher; absent where the host has none (`postdesk web`). */
export interface CommandLinePort {
  /** Read at each call: the app's location is where it runs now. */
  host(): LauncherHost;
}

const DESKTOP_ONLY: CommandLineState = {
  supported: false,
  installed: false,
  location: null,
  notes: ['The postdesk command is put on your PATH from the desktop app.'],
};

const view = (s: LauncherState): CommandLineState => ({ ...s, notes: [...s.notes] });

const NOT_CONFIRMED =
  'The command was left as it was: Postdesk changes what runs on this computer only once you confirm it.';

/**
 * `commandLine:*`. Installing or removing a command changes what runs when the user types `postdesk`, so each
 * is confirmed in main's own dialog, which the page can neither draw nor click; nothing the page sends
 * chooses a path: where the launcher goes and what it runs are main's.
 */
export function commandLineHandlers(port: CommandLinePort | undefined, confirm: ConfirmPort | undefined) {
  const ask = async (title: string, lines: readonly string[]): Promise<void> => {
    const answer = confirm ? await confirm.confirm({ title, lines }) : null;
    if (!answer?.confirmed)
      throw new BridgeFault('forbidden', answer?.reason ?? NOT_CONFIRMED, undefined, {
        code: NOT_CONFIRMED_CODE,
      });
  };
  const act = async (fn: () => Promise<CommandLineState>): Promise<CommandLineState> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof BridgeFault) throw err;
      throw new BridgeFault('unavailable', launcherFailureText(err));
    }
  };
  return {
    status: async (): Promise<CommandLineState> =>
      port ? view(await launcherStatus(port.host())) : DESKTOP_ONLY,
    install: async (): Promise<CommandLineState> => {
      if (!port) return DESKTOP_ONLY;
      const host = port.host();
      const now = await launcherStatus(host);
      if (!now.supported) return view(now);
      await ask('Put the postdesk command on your PATH?', [
        `Postdesk writes a small launcher at ${now.location ?? 'its folder of commands'}.`,
        `Typing postdesk in a terminal then runs the command-line tool of this copy of Postdesk (${host.cliScript}) with the Node.js on your PATH.`,
      ]);
      return act(async () => view(await installLauncher(host)));
    },
    uninstall: async (): Promise<CommandLineState> => {
      if (!port) return DESKTOP_ONLY;
      const host = port.host();
      const now = await launcherStatus(host);
      if (!now.installed) return view(now);
      await ask('Remove the postdesk command?', [`Postdesk removes the launcher at ${now.location}.`]);
      return act(async () => view(await uninstallLauncher(host)));
    },
  };
}
