import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { truncate } from '../output';

export function registerAutomationsCommand(program: Command, deps: CliDeps): void {
  const automations = program
    .command('automations')
    .description('scheduled agent runs (created in the dashboard or over MCP)');
  automations
    .command('list', { isDefault: true })
    .description('every automation with its schedule, mode and targets')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const { automations: list } = await out.spin('listing automations', () =>
        core.client.listAutomations(),
      );
      out.result({ automations: list }, () => {
        out.table(
          ['id', 'name', 'status', 'mode', 'queue', 'schedule', 'targets', 'rev'],
          list.map((a) => [
            a.id,
            truncate(a.name, 30),
            a.status,
            a.execution_mode,
            a.queue,
            `${a.schedule.cron} (${a.schedule.timezone})`,
            a.targets.map((t) => t.platform).join(', '),
            a.revision,
          ]),
        );
      });
    });
}
