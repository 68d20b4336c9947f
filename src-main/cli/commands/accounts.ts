import type { Command } from 'commander';
import type { CliDeps } from '../context';

export function registerAccountsCommand(program: Command, deps: CliDeps): void {
  program
    .command('accounts')
    .description('connected social accounts, newest first (their ids go into --target platform:id)')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const { accounts } = await out.spin('listing accounts', () => core.client.listAccounts());
      out.result({ accounts }, () => {
        out.table(
          ['platform', 'id', 'name'],
          accounts.map((a) => [a.platform, a.id, a.name]),
        );
      });
    });
}
