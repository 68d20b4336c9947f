import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { truncate } from '../output';
import { entryJson } from './posts';

export function registerOutboxCommand(program: Command, deps: CliDeps): void {
  const outbox = program
    .command('outbox')
    .description('posts written locally before sending: see, send, retry or drop them');
  outbox
    .command('list', { isDefault: true })
    .description('queued and recent entries')
    .option('--all', 'include sent entries')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const entries = core.outbox.list(
        opts.all ? undefined : { states: ['pending', 'sending', 'unconfirmed', 'failed'] },
      );
      out.result({ entries: entries.map(entryJson) }, () => {
        if (entries.length === 0) return out.line('the outbox is empty');
        out.table(
          ['entry', 'state', 'tries', 'post', 'caption', 'error'],
          entries.map((e) => [
            e.id,
            e.state,
            e.attempts,
            e.result?.postId ?? '',
            truncate(e.request.caption, 30),
            e.error ? truncate(e.error.message, 40) : '',
          ]),
        );
      });
    });
  outbox
    .command('flush')
    .description('send what is queued now and reconcile unconfirmed publishes')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const report = await out.spin('sending queued posts', () => core.outbox.replay());
      out.result(report, () => {
        out.line(
          `outbox now: ${report.sent} sent, ${report.failed} failed, ${report.unconfirmed} unconfirmed, ${report.pending} waiting`,
        );
        if (report.blocked) out.line(`blocked: ${report.blocked}`);
      });
      if (report.blocked) deps.setExitCode(EXIT.other);
      else if (report.pending + report.unconfirmed > 0) deps.setExitCode(EXIT.network);
    });
  outbox
    .command('retry <entry>')
    .description('queue a failed entry again')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const ok = core.outbox.retry(id);
      out.result({ ok }, () => out.line(ok ? `queued ${id} again` : `${id} is not a failed entry`));
      if (!ok) deps.setExitCode(EXIT.badInput);
    });
  outbox
    .command('discard <entry>')
    .description('drop an entry that is not being sent')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const ok = core.outbox.discard(id);
      out.result({ ok }, () =>
        out.line(ok ? `dropped ${id}` : `${id} cannot be dropped (unknown, or in flight)`),
      );
      if (!ok) deps.setExitCode(EXIT.badInput);
    });
}
