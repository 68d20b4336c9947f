import type { Command } from 'commander';
import { OPEN_OUTBOX_STATES, type OutboxEntry, type OutboxState } from '../../core/outbox/outbox';
import type { Core } from '../../core/services';
import type { CliDeps } from '../context';
import { EXIT, inUserWords } from '../exit-codes';
import type { Output } from '../output';
import { truncate } from '../output';
import { entryJson } from './posts';
import { commandGroup, defaultCommand } from '../command-group';

const STATE_WORDS: Readonly<Record<OutboxState, string>> = {
  pending: 'pending',
  sending: 'sending',
  sent: 'sent',
  unconfirmed: 'unconfirmed',
  needs_decision: 'needs your decision',
  failed: 'failed',
};

const needs = (n: number): string => `${n} need${n === 1 ? 's' : ''} your decision`;

/** What a person has to know, and do, about publishes Postdesk cannot tell were made. */
export function explainUndecided(out: Output, entries: readonly OutboxEntry[]): void {
  const undecided = entries.filter((e) => e.state === 'needs_decision');
  if (undecided.length === 0) return;
  out.line('');
  out.line(
    `${needs(undecided.length)}: the service took the publish but its answer was lost, and its posts list can show neither the post nor that it was never made.`,
  );
  out.line('Postdesk does not send these again on its own. Look at the account, then:');
  out.line('  postdesk outbox retry <entry>     it was not published: send it again');
  out.line('  postdesk outbox discard <entry>   it was published: forget it');
}

export function registerOutboxCommand(program: Command, deps: CliDeps): void {
  const outbox = commandGroup(
    program,
    'outbox',
    'posts written locally before sending: see, send, retry or drop them',
  );
  defaultCommand(outbox, 'list', 'queued and recent entries, and publishes that need your decision')
    .option('--all', 'include sent entries')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const entries = core.outbox.list(opts.all ? undefined : { states: OPEN_OUTBOX_STATES });
      out.result({ entries: entries.map(entryJson) }, () => {
        if (entries.length === 0) return out.line('the outbox is empty');
        out.table(
          ['entry', 'state', 'tries', 'post', 'caption', 'error'],
          entries.map((e) => [
            e.id,
            STATE_WORDS[e.state],
            e.attempts,
            e.result?.postId ?? '',
            truncate(e.request.caption, 30),
            e.error ? truncate(inUserWords(e.error.message), 40) : '',
          ]),
        );
        explainUndecided(out, entries);
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
          `outbox now: ${report.sent} sent, ${report.failed} failed, ${report.unconfirmed} unconfirmed, ${needs(report.needsDecision)}, ${report.pending} waiting`,
        );
        if (report.blocked) out.line(`blocked: ${report.blocked}`);
        explainUndecided(out, core.outbox.list({ states: ['needs_decision'] }));
      });
      if (report.blocked || report.needsDecision > 0) deps.setExitCode(EXIT.other);
      else if (report.pending + report.unconfirmed > 0) deps.setExitCode(EXIT.network);
    });
  /** A change to one entry, said in words either way; refused (not the entry's state): a bad-input exit. */
  const entryCommand = (
    name: string,
    description: string,
    change: (core: Core, id: string) => boolean,
    words: (ok: boolean, id: string) => string,
  ): void => {
    outbox
      .command(`${name} <entry>`)
      .description(description)
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const out = deps.output(cmd);
        const core = await deps.core(cmd, { replay: false });
        const ok = change(core, id);
        out.result({ ok }, () => out.line(words(ok, id)));
        if (!ok) deps.setExitCode(EXIT.badInput);
      });
  };
  entryCommand(
    'retry',
    'send an entry again: a failed one, or one that needs your decision (it was not published)',
    (core, id) => core.outbox.retry(id),
    (ok, id) =>
      ok
        ? `queued ${id} again; the next postdesk command (or \`postdesk outbox flush\`) sends it`
        : `${id} is neither a failed entry nor one that needs your decision`,
  );
  entryCommand(
    'discard',
    'drop an entry that is not being sent (for one that needs your decision: it was published)',
    (core, id) => core.outbox.discard(id),
    (ok, id) => (ok ? `dropped ${id}` : `${id} cannot be dropped (unknown, or in flight)`),
  );
}
