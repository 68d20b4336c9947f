import type { Command } from 'commander';
import { QueueSchedule, slotLabel, type AccountQueue } from '../../../src-shared/queue';
import { ApiError, CredentialMissingError, ValidationError } from '../../core/api/errors';
import { createDeliveryFeed } from '../../core/deliveries/delivery-feed';
import { NoQueueError } from '../../core/queue/place';
import { createQueueService, type QueueService } from '../../core/queue/queue-service';
import { parseSlotSpec } from '../../core/queue/slot-spec';
import type { Core } from '../../core/services';
import { parseMedia, positiveInt, postContentOptions, requiredTargets } from '../args';
import type { CliDeps } from '../context';
import { accountLabel, accountNames } from '../names';
import { truncate } from '../output';
import { recordScope } from './upload';

/** How long `queue add` waits for each post's confirmation before leaving it to the outbox. */
const SETTLE_MS = 20_000;

/**
 * The queue on the CLI's core: posts go through the outbox (written to the store before they are sent), taken slots
 * come from the local delivery index, refreshed from the service before anything is placed.
 */
export function queueServiceFor(core: Core): QueueService {
  const scope = recordScope(core);
  const feed = createDeliveryFeed({ store: core.store, client: () => learning, scope: () => scope });
  const learning = feed.observe(core.client, () => scope);
  return createQueueService({
    store: core.store,
    scope: () => scope,
    index: feed.index,
    refresh: (force) => feed.refresh({ force }),
    create: async (req) => {
      const { entryId } = core.outbox.enqueuePost(req);
      const entry = await core.outbox.settle(entryId, { timeoutMs: SETTLE_MS });
      if (entry.state === 'failed') {
        throw new ApiError({
          status: entry.error?.status ?? 400,
          code: entry.error?.code ?? null,
          message: entry.error?.message ?? 'the service refused the post',
          operation: 'createPost',
        });
      }
      if (entry.state === 'sent' && entry.result) {
        // What the outbox's batch made, so the next post of this command sees the slot taken.
        await feed.refresh({ force: true });
        return entry.result.postId;
      }
      return null;
    },
    reschedule: async (id, at) => void (await learning.updatePost({ id, scheduled_at: at })),
    // A create the outbox has not had confirmed keeps its slot, as the service will hold it.
    pending: () =>
      core.outbox
        .list({ states: ['pending', 'sending', 'unconfirmed', 'needs_decision'] })
        .map((e) => ({ targets: e.request.targets, scheduled_at: e.request.scheduled_at ?? null })),
  });
}

/** A target without slots is an argument to fix, said with the command that fixes it. */
export function noQueueSlots(e: unknown): void {
  if (e instanceof NoQueueError) {
    throw new ValidationError(
      e.accountIds.map((id) => ({
        path: 'target',
        message: `account ${id} has no queue slots yet (set them with \`postdesk queue set ${id} --slot "mon-fri 09:00"\`)`,
      })),
      null,
      'argument',
    );
  }
}
const noQueue = (e: unknown): never => {
  noQueueSlots(e);
  throw e;
};

const scheduleText = (q: Readonly<AccountQueue>): string =>
  `${q.slots.map(slotLabel).join(', ')} (${q.timezone})`;

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerQueueCommand(program: Command, deps: CliDeps): void {
  const queue = program
    .command('queue')
    .description('weekly posting slots per account, kept on this machine; add posts to the next free slot');

  queue
    .command('show')
    .argument('[account_id]', 'only this account')
    .description("each account's slots and its upcoming ones, filled (with the caption) or empty")
    .option('--count <n>', 'upcoming slots per account', positiveInt('--count', 200), 10)
    .action(async (accountId: string | undefined, opts: { count: number }, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const service = queueServiceFor(core);
      const schedules = service
        .schedules()
        .filter((q) => accountId === undefined || q.account_id === accountId);
      const upcoming = await out.spin('reading scheduled posts', () =>
        service.upcoming({ accountIds: accountId ? [accountId] : undefined, count: opts.count, force: true }),
      );
      const names = schedules.length && !out.json ? await accountNames(core) : new Map<string, string>();
      out.result({ queues: schedules, upcoming }, () => {
        if (schedules.length === 0) {
          out.line(
            accountId
              ? `account ${accountId} has no queue slots (see \`postdesk queue set --help\`)`
              : 'no account has queue slots yet (see `postdesk queue set --help`)',
          );
          return;
        }
        for (const q of schedules) {
          out.line(`${accountLabel(names, q.account_id)}: ${scheduleText(q)}`);
          const u = upcoming.find((a) => a.account_id === q.account_id);
          out.table(
            ['slot', 'at', 'post', 'caption'],
            (u?.slots ?? []).map((s) => [
              `${s.date} ${slotLabel(s)}`,
              s.at,
              s.posts.map((p) => p.post_id).join(', ') || '(free)',
              truncate(s.posts.map((p) => p.caption).join(' | '), 40),
            ]),
          );
        }
      });
    });

  queue
    .command('set')
    .argument('<account_id>', 'the account (see `postdesk accounts`)')
    .description("replace an account's weekly slots, read in an IANA time zone")
    .option(
      '--slot <days time[,time]>',
      'e.g. "mon-fri 09:00,13:00", "sat 10:30", "daily 08:00"; repeatable',
      (v: string, prev: string[] = []) => [...prev, v],
      [],
    )
    .option(
      '--timezone <zone>',
      'IANA zone the times are read in',
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    )
    .option('--clear', "remove the account's queue")
    .action(
      async (
        accountId: string,
        opts: { slot: string[]; timezone: string; clear?: boolean },
        cmd: Command,
      ) => {
        const out = deps.output(cmd);
        if (!opts.clear && opts.slot.length === 0) {
          throw new ValidationError(
            [{ path: 'slot', message: 'give at least one --slot "days HH:mm", or --clear' }],
            null,
            'argument',
          );
        }
        const slots = opts.slot.flatMap((spec, i) => {
          const r = parseSlotSpec(spec);
          if (!r.ok)
            throw new ValidationError([{ path: `slot[${i}]`, message: r.message }], null, 'argument');
          return r.slots;
        });
        const unique = [...new Map(slots.map((s) => [`${s.weekday} ${s.time}`, s])).values()];
        const schedule = QueueSchedule.safeParse({
          timezone: opts.timezone,
          slots: opts.clear ? [] : unique,
        });
        if (!schedule.success) throw ValidationError.fromZod(schedule.error, null, 'argument');
        const core = await deps.core(cmd);
        const saved = queueServiceFor(core).set(accountId, schedule.data);
        out.result({ queue: saved, account_id: accountId }, () =>
          out.line(saved ? `${accountId}: ${scheduleText(saved)}` : `${accountId}: queue removed`),
        );
      },
    );

  postContentOptions(
    queue
      .command('add')
      .description('create a post at the next free slot of each target (one post per distinct time)'),
  ).action(
    async (opts: { caption: string; target: string[]; media: string[]; title?: string }, cmd: Command) => {
      const out = deps.output(cmd);
      const targets = requiredTargets(opts.target);
      const media = parseMedia(opts.media);
      const core = await deps.core(cmd);
      if ((await core.apiKeySource()) === 'none') {
        throw new CredentialMissingError(
          'createPost',
          'an API key',
          'run `postdesk login` or set POSTDESK_API_KEY',
        );
      }
      const res = await out
        .spin('placing the post in the queue', () =>
          queueServiceFor(core).add({
            caption: opts.caption,
            targets,
            ...(media.length ? { media } : {}),
            ...(opts.title !== undefined ? { title: opts.title } : {}),
          }),
        )
        .catch(noQueue);
      out.result(res, () => {
        for (const p of res.posts) {
          const who = p.targets.map((t) => `${t.platform}:${t.social_account_id}`).join(', ');
          out.line(
            p.post_id
              ? `${out.colors.green('✓')} ${p.at}: post ${p.post_id} for ${who}`
              : `${out.colors.yellow('…')} ${p.at}: queued in the outbox for ${who} (sent by the next postdesk command)`,
          );
        }
      });
    },
  );
}
