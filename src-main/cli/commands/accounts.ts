import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { AUTOMATIONS_ONLY } from '../args';

export function registerAccountsCommand(program: Command, deps: CliDeps): void {
  program
    .command('accounts')
    .description('connected social accounts, newest first (their ids go into --target platform:id)')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const { accounts } = await out.spin('listing accounts', () => core.client.listAccounts());
      // The contract keeps YouTube out of the posts operations: say so where the account is listed.
      const reach = (platform: string) =>
        AUTOMATIONS_ONLY.includes(platform) ? 'automations only' : 'posts';
      out.result({ accounts: accounts.map((a) => ({ ...a, reachable_through: reach(a.platform) })) }, () => {
        out.table(
          ['platform', 'id', 'name', 'reachable through'],
          accounts.map((a) => [a.platform, a.id, a.name, reach(a.platform)]),
        );
      });
    });
}
