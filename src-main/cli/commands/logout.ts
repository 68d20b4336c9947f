import type { Command } from 'commander';
import { API_KEY_SECRET } from '../../core/secrets/secret-store';
import type { CliDeps } from '../context';

export function registerLogoutCommand(program: Command, deps: CliDeps): void {
  program
    .command('logout')
    .description('remove the API key from the OS keychain')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const { secrets } = deps.local();
      const had = await secrets.has(API_KEY_SECRET);
      await secrets.delete(API_KEY_SECRET);
      out.result({ ok: true, removed: had }, () => {
        out.line(had ? 'API key removed from the keychain' : 'no API key was stored');
        if (deps.io.env.POSTDESK_API_KEY) out.line('note: POSTDESK_API_KEY is still set in this environment');
        if (deps.io.env.POSTDESK_API_KEY_FILE)
          out.line('note: POSTDESK_API_KEY_FILE is still set in this environment');
      });
    });
}
