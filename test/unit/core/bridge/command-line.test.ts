/**
 * `commandLine:*`: the launcher is written or removed only after main's own dialog said yes (the dialog is the
 * Electron edge, answered here by a fake), in a temp home, and what goes wrong is said for a person.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLineHandlers, type CommandLinePort } from '../../../../src-main/core/bridge/command-line';
import type { ConfirmPort, PowerChange } from '../../../../src-main/core/bridge/confirm';
import { BridgeFault } from '../../../../src-main/core/bridge/bridge-fault';
import { NOT_CONFIRMED_CODE } from '../../../../src-shared/ipc/settings';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function setUp(): { port: CommandLinePort; file: string; cli: string } {
  const root = mkdtempSync(join(tmpdir(), 'bridge-cli-'));
  roots.push(root);
  const home = join(root, 'home');
  const cli = join(root, 'app', 'bin', 'postdesk.js');
  return {
    cli,
    file: join(home, '.local', 'bin', 'postdesk'),
    port: {
      host: () => ({
        platform: 'linux',
        home,
        env: { PATH: `${join(home, '.local', 'bin')}:/usr/bin` },
        cliScript: cli,
        nodeVersion: async () => 'v22.12.0',
      }),
    },
  };
}

/** Main's dialog, answered yes or no; it keeps what it was asked. */
function dialog(yes: boolean): ConfirmPort & { asked: PowerChange[] } {
  const asked: PowerChange[] = [];
  return {
    asked,
    confirm: async (change) => {
      asked.push(change);
      return yes ? { confirmed: true } : { confirmed: false, reason: 'You chose Cancel.' };
    },
  };
}

describe('commandLine:* on the bridge', () => {
  it('installs only once main’s dialog said yes, naming where the launcher goes and what it runs', async () => {
    const { port, file, cli } = setUp();
    const no = dialog(false);
    const refused = await commandLineHandlers(port, no)
      .install()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BridgeFault);
    expect(refused).toMatchObject({
      kind: 'forbidden',
      code: NOT_CONFIRMED_CODE,
      message: 'You chose Cancel.',
    });
    expect(existsSync(file)).toBe(false);
    expect(no.asked[0]?.lines.join('\n')).toContain(file);
    expect(no.asked[0]?.lines.join('\n')).toContain(cli);

    const yes = dialog(true);
    const h = commandLineHandlers(port, yes);
    expect(await h.install()).toEqual({ supported: true, installed: true, location: file, notes: [] });
    expect(readFileSync(file, 'utf8')).toContain(cli);
    expect(await h.status()).toMatchObject({ installed: true });

    // Removing asks too; a no leaves it.
    await expect(commandLineHandlers(port, dialog(false)).uninstall()).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(existsSync(file)).toBe(true);
    expect(await h.uninstall()).toMatchObject({ installed: false, location: file });
    expect(existsSync(file)).toBe(false);
    expect(yes.asked.map((c) => c.title)).toEqual([
      'Put the postdesk command on your PATH?',
      'Remove the postdesk command?',
    ]);
  });

  it('with no dialog to ask (no confirm port), refuses; with no launcher (postdesk web), says it is the desktop app’s', async () => {
    const { port, file } = setUp();
    await expect(commandLineHandlers(port, undefined).install()).rejects.toMatchObject({ kind: 'forbidden' });
    expect(existsSync(file)).toBe(false);
    const web = commandLineHandlers(undefined, dialog(true));
    for (const state of [await web.status(), await web.install(), await web.uninstall()])
      expect(state).toEqual({
        supported: false,
        installed: false,
        location: null,
        notes: ['The postdesk command is put on your PATH from the desktop app.'],
      });
  });

  it('says, for a person, that a postdesk it did not write is in the way, and leaves it', async () => {
    const { port, file } = setUp();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\necho mine\n');
    const err = await commandLineHandlers(port, dialog(true))
      .install()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unavailable' });
    expect((err as Error).message).toBe(
      `There is already a postdesk command at ${file} that Postdesk did not install (perhaps from npm). Remove it first, or keep using it.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });
});
