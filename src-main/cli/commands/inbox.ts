import type { Command } from 'commander';
import { Journal } from '../../core/executor/journal';
import { errorText } from '../../core/common/error-text';
import { createInbox, type Inbox, type InboxResult, type KnownRun } from '../../core/inbox/inbox';
import { futureDateTime, localZoneOf, postId } from '../args';
import { ValidationError } from '../../core/api/errors';
import { queueSlotFor } from '../../core/inbox/queue-slot';
import { queueServiceFor } from './queue';
import type { CliDeps } from '../context';
import { EXIT, inUserWords } from '../exit-codes';
import type { Output } from '../output';
import { truncate } from '../output';

const resultJson = (r: InboxResult) => ({
  post_id: r.post_id,
  ok: r.ok,
  ...(r.scheduled_at !== undefined ? { scheduled_at: r.scheduled_at } : {}),
  error: r.ok ? null : errorText(r.error),
});

/** The inbox of this CLI: the service's drafts, and this machine's executor journal to name their automations. */
async function inboxOf(deps: CliDeps, self: Command): Promise<Inbox> {
  const core = await deps.core(self);
  const journal = new Journal(deps.local().store, null);
  return createInbox({
    client: async () => core.client,
    runs: async (ids) => {
      const known = new Map<string, KnownRun>();
      for (const id of ids) {
        const row = journal.find(id);
        if (row && row.run_id === id) {
          known.set(id, {
            local_id: row.id,
            automation_id: row.automation_id,
            automation_name: row.automation_name,
            state: null,
            scheduled_for: row.scheduled_for,
            finished_at: row.finished_at,
          });
        }
      }
      return known;
    },
  });
}

function report(deps: CliDeps, out: Output, verb: string, results: readonly InboxResult[]): void {
  out.result({ results: results.map(resultJson) }, () => {
    out.table(
      ['post', 'result'],
      results.map((r) => [
        r.post_id,
        r.ok
          ? `${verb}${r.scheduled_at ? ` for ${r.scheduled_at}` : ''}`
          : `not ${verb}: ${inUserWords(errorText(r.error))}`,
      ]),
    );
  });
  if (results.some((r) => !r.ok)) deps.setExitCode(EXIT.service);
}

export function registerInboxCommand(program: Command, deps: CliDeps): void {
  const inbox = program
    .command('inbox')
    .description('drafts that automation runs made, waiting for a person: list, approve, reject');
  inbox
    .command('list', { isDefault: true })
    .description(
      'the drafts of automation runs, newest first, grouped by automation (hand-made drafts never)',
    )
    .option('--run <id>', "only this run's drafts")
    .action(async (flags: { run?: string }, self: Command) => {
      const out = deps.output(self);
      const listed = await (await inboxOf(deps, self)).list({ run_id: flags.run });
      out.result(listed, () => {
        if (listed.total === 0) {
          out.note('no drafts waiting');
          return;
        }
        for (const g of listed.groups) {
          out.note(`${g.automation_name ?? 'runs not started on this machine'} (${g.drafts.length})`);
          out.table(
            ['post', 'made', 'run', 'targets', 'media', 'caption'],
            g.drafts.map((d) => [
              d.post_id,
              d.created_at,
              d.run.id,
              d.targets.map((t) => t.platform).join(','),
              d.media.length,
              truncate(d.caption, 40),
            ]),
          );
        }
        if (listed.truncated)
          out.note('the service lists the newest 100 drafts; act on these to see the rest');
      });
    });
  inbox
    .command('approve')
    .description('schedule drafts: now (the soonest time the service takes) or --at a future time')
    .argument('<post-id...>', 'parent post ids, as `inbox list` shows them')
    .option(
      '--at <date-time>',
      "when to publish: 2031-01-01 09:00 (this machine's zone, or TZ) or 2031-01-01T09:00:00Z",
    )
    .option('--queue', "each at its accounts' next free slot in the posting queue (`postdesk queue`)")
    .action(async (given: string[], flags: { at?: string; queue?: boolean }, self: Command) => {
      const ids = given.map((id) => postId(id, 'post-id'));
      if (flags.queue && flags.at !== undefined) {
        throw new ValidationError(
          [{ path: 'queue', message: 'give --at or --queue, not both' }],
          null,
          'argument',
        );
      }
      const at =
        flags.at === undefined ? undefined : futureDateTime(flags.at, 'at', localZoneOf(deps.io.env));
      const inbox = await inboxOf(deps, self);
      const results = flags.queue
        ? await (async () => {
            const queue = queueServiceFor(await deps.core(self));
            return inbox.approveEach(ids, (draft) => queueSlotFor(queue, draft));
          })()
        : await inbox.approve(ids, at);
      report(deps, deps.output(self), 'approved', results);
    });
  inbox
    .command('reject')
    .description('delete drafts, every delivery of each')
    .argument('<post-id...>', 'parent post ids, as `inbox list` shows them')
    .action(async (given: string[], _flags: unknown, self: Command) => {
      const ids = given.map((id) => postId(id, 'post-id'));
      const results = await (await inboxOf(deps, self)).reject(ids);
      report(deps, deps.output(self), 'rejected', results);
    });
}
