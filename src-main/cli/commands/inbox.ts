import type { Command } from 'commander';
import { Journal } from '../../core/executor/journal';
import { errorText } from '../../core/common/error-text';
import { createInbox, type Inbox, type InboxResult, type KnownRun } from '../../core/inbox/inbox';
import { futureDateTime, localZoneOf, parseDateTime, postId } from '../args';
import { serviceNow } from '../service-now';
import { ValidationError } from '../../core/api/errors';
import { queueSlotFor } from '../../core/inbox/queue-slot';
import { queueServiceFor } from './queue';
import type { CliDeps } from '../context';
import { EXIT, inUserWords } from '../exit-codes';
import { VERSION } from '../version';
import type { Output } from '../output';
import { truncate } from '../output';
import { AssistantLedger, isProposalId } from '../../core/assistant/proposals';
import { sendApproved } from '../../core/assistant/gate';
import { openChangePlans } from '../../core/outbox/change-plans';
import { changeOne } from '../../core/post-changes/recorded-single';
import { UNKNOWN_WORDS } from '../../core/post-changes/bulk-update';
import { commandGroup, defaultCommand } from '../command-group';

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
  const plans = openChangePlans(core.store, core.endpoint.sandbox ? 'sandbox' : core.endpoint.baseUrl);
  return createInbox({
    client: async () => core.client,
    // Each approval and rejection as every other change to a post: recorded before it is sent, a lost answer read
    // back, and the same command run again finishes it rather than sending it twice.
    change: async (c) => {
      const o = await changeOne(core.client, plans, c);
      if (o.state === 'done') return o.answer;
      if (o.state === 'failed')
        throw o.cause ?? new Error(o.error ?? 'the service did not apply this change');
      throw new Error(UNKNOWN_WORDS);
    },
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

/** A proposal's content in a line: its caption or title, and its targets' platforms. */
function proposalSummary(args: Readonly<Record<string, unknown>>): string {
  const text = [args.caption, args.title, args.name].find((v) => typeof v === 'string') as string | undefined;
  const targets = Array.isArray(args.targets)
    ? (args.targets as { platform?: unknown }[]).map((t) => String(t.platform ?? '?')).join(',')
    : '';
  return [targets, text === undefined ? '' : truncate(text, 40)].filter(Boolean).join(' ') || '(no caption)';
}

/**
 * Approves or rejects AI assistants' proposals (`postdesk mcp`). An approved one is sent at once, exactly
 * once (core/assistant/gate.ts), through the service's MCP server with this CLI's key; the MCP SDK that
 * needs is loaded only here.
 */
async function decideProposals(
  deps: CliDeps,
  self: Command,
  ids: readonly string[],
  decision: 'approved' | 'rejected',
): Promise<InboxResult[]> {
  const ledger = new AssistantLedger(deps.local().store);
  const results: InboxResult[] = [];
  const approved = [];
  for (const id of ids) {
    try {
      const p = ledger.decide(id, decision);
      if (decision === 'rejected') {
        ledger.note(p.tool, 'rejected', 'rejected by the person', p.id);
        results.push({ post_id: id, ok: true, error: null });
      } else approved.push(p);
    } catch (error) {
      results.push({ post_id: id, ok: false, error });
    }
  }
  if (approved.length === 0) return results;
  const core = await deps.core(self, { replay: false });
  const apiKey = await core.apiKey();
  const { connectServiceTools } = await import('../../core/assistant/service-tools');
  const service = apiKey === null ? null : await connectServiceTools(core.endpoint.baseUrl, apiKey, VERSION);
  try {
    for (const p of approved) {
      if (!service) {
        results.push({
          post_id: p.id,
          ok: false,
          error: new Error(
            'approved, but not sent: no API key (run `postdesk login`); `postdesk mcp` sends it when the assistant calls again',
          ),
        });
        continue;
      }
      const done = await sendApproved(ledger, p, service.send);
      results.push({
        post_id: p.id,
        ok: done.state === 'sent',
        error:
          done.state === 'sent'
            ? null
            : new Error(`approved, but the service refused it: ${done.result ?? done.state}`),
      });
    }
  } finally {
    await service?.close();
  }
  return results;
}

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerInboxCommand(program: Command, deps: CliDeps): void {
  const inbox = commandGroup(
    program,
    'inbox',
    'drafts that automation runs made, waiting for a person: list, approve, reject',
  );
  defaultCommand(
    inbox,
    'list',
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
    .description(
      'schedule drafts: now (the soonest time the service takes) or --at a future time; or send proposals (prop_…) of AI assistants',
    )
    .argument('<id...>', 'parent post ids, as `inbox list` shows them, or proposal ids (`inbox proposals`)')
    .option(
      '--at <date-time>',
      "when to publish: 2031-01-01 09:00 (this machine's zone, or TZ) or 2031-01-01T09:00:00Z",
    )
    .option('--queue', "each at its accounts' next free slot in the posting queue (`postdesk queue`)")
    .action(async (given: string[], flags: { at?: string; queue?: boolean }, self: Command) => {
      const ids = given.map((id) => (isProposalId(id) ? id : postId(id, 'id')));
      if (flags.queue && flags.at !== undefined) {
        throw new ValidationError(
          [{ path: 'queue', message: 'give --at or --queue, not both' }],
          null,
          'argument',
        );
      }
      const proposals = ids.filter(isProposalId);
      const drafts = ids.filter((id) => !isProposalId(id));
      if (proposals.length > 0 && (flags.at !== undefined || flags.queue)) {
        throw new ValidationError(
          [
            {
              path: 'at',
              message: '--at and --queue are for drafts: a proposal is sent as the assistant made it',
            },
          ],
          null,
          'argument',
        );
      }
      const approveDrafts = async (): Promise<readonly InboxResult[]> => {
        if (drafts.length === 0) return [];
        const zone = localZoneOf(deps.io.env);
        if (flags.at !== undefined) parseDateTime(flags.at, 'at', { zone });
        const inbox = await inboxOf(deps, self);
        // Past or not by the service's clock, which judges the schedule.
        const at =
          flags.at === undefined
            ? undefined
            : futureDateTime(flags.at, 'at', zone, await serviceNow((await deps.core(self)).client));
        if (!flags.queue) return inbox.approve(drafts, at);
        const queue = queueServiceFor(await deps.core(self));
        return inbox.approveEach(drafts, (draft) => queueSlotFor(queue, draft));
      };
      const results = [
        ...(proposals.length ? await decideProposals(deps, self, proposals, 'approved') : []),
        ...(await approveDrafts()),
      ];
      report(deps, deps.output(self), 'approved', results);
    });
  inbox
    .command('reject')
    .description('delete drafts, every delivery of each; or reject proposals (prop_…) of AI assistants')
    .argument('<id...>', 'parent post ids, as `inbox list` shows them, or proposal ids (`inbox proposals`)')
    .action(async (given: string[], _flags: unknown, self: Command) => {
      const ids = given.map((id) => (isProposalId(id) ? id : postId(id, 'id')));
      const proposals = ids.filter(isProposalId);
      const drafts = ids.filter((id) => !isProposalId(id));
      const results = [
        ...(proposals.length ? await decideProposals(deps, self, proposals, 'rejected') : []),
        ...(drafts.length ? await (await inboxOf(deps, self)).reject(drafts) : []),
      ];
      report(deps, deps.output(self), 'rejected', results);
    });
  inbox
    .command('proposals')
    .description(
      'what AI assistants asked to do through `postdesk mcp`, waiting for you (approve or reject by id)',
    )
    .option('--all', 'every state, not only the waiting ones')
    .action((flags: { all?: boolean }, self: Command) => {
      const out = deps.output(self);
      const ledger = new AssistantLedger(deps.local().store);
      const proposals = ledger.list(flags.all ? undefined : ['pending']);
      out.result({ proposals }, () => {
        if (proposals.length === 0) {
          out.note(flags.all ? 'no proposals' : 'no proposals waiting');
          return;
        }
        out.table(
          ['proposal', 'tool', 'state', 'made', 'content'],
          proposals.map((p) => [p.id, p.tool, p.state, p.created_at, proposalSummary(p.arguments)]),
        );
      });
    });
  inbox
    .command('activity')
    .description('every call AI assistants made through `postdesk mcp`, newest first, with what became of it')
    .option('--limit <n>', 'how many (default 50)', '50')
    .action((flags: { limit: string }, self: Command) => {
      const out = deps.output(self);
      const limit = Math.min(Math.max(Number.parseInt(flags.limit, 10) || 50, 1), 1000);
      const activity = new AssistantLedger(deps.local().store).activity(limit);
      out.result({ activity }, () => {
        if (activity.length === 0) {
          out.note('no calls yet');
          return;
        }
        out.table(
          ['when', 'tool', 'outcome', 'proposal', 'detail'],
          activity.map((a) => [a.at, a.tool, a.outcome, a.proposal_id ?? '', a.detail]),
        );
      });
    });
}
