import { Option, type Command } from 'commander';
import { LIMITS } from '../../../src-shared/api/limits';
import { DELETABLE_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { PLATFORMS, type Target } from '../../../src-shared/api/common';
import { DELIVERY_STATUSES, type CreatePostRequest, UpdatePostRequest } from '../../../src-shared/api/posts';
import { connectedAccounts } from '../../core/api/connected-accounts';
import { CredentialMissingError, ValidationError } from '../../core/api/errors';
import type { OutboxEntry } from '../../core/outbox/outbox';
import type { Core } from '../../core/services';
import {
  AUTOMATIONS_ONLY,
  collect,
  futureDateTime,
  localZoneOf,
  parseDateTime,
  parseMedia,
  parseTargets,
  positiveInt,
  postContentOptions,
  postId,
  requiredTargets,
  zoneNote,
} from '../args';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { serviceNow } from '../service-now';
import { deleteOnePost, updateOnePost } from './posts-change';
import { retryPosts, type RetryOptions } from './posts-retry';
import { shiftPosts, type ShiftOptions } from './posts-shift';
import { listPostPages, printDeliveries, showPost } from './posts-show';
import { commandGroup, defaultCommand } from '../command-group';

/** The entry as the CLI reports it (also the `--json` shape of `posts create` and `outbox list`). */
export function entryJson(e: OutboxEntry) {
  return {
    entry_id: e.id,
    kind: e.kind,
    state: e.state,
    attempts: e.attempts,
    post_id: e.result?.postId ?? null,
    social_post_ids: e.result?.socialPostIds ?? [],
    error: e.error,
    caption: e.request.caption,
    scheduled_at: e.request.scheduled_at ?? null,
    action: e.request.action ?? (e.request.scheduled_at ? 'schedule' : 'publish'),
    created_at: e.createdAt,
  };
}

/**
 * What the service would refuse about these targets, found before anything is queued: a platform the posts
 * operations do not reach, and (when the accounts can be listed now) an account that is not connected, or is
 * another platform's. Offline, the accounts are not checked: the post is queued, and the service has the last word.
 */
async function checkTargets(core: Core, targets: readonly Target[], listAccounts: boolean): Promise<void> {
  const issues = targets.flatMap((t, i) =>
    AUTOMATIONS_ONLY.includes(t.platform)
      ? [
          {
            path: `target[${i}]`,
            message: `${t.platform} is reached through automations only (see \`postdesk automations\`); posts cannot be created for it`,
          },
        ]
      : [],
  );
  if (issues.length === 0 && listAccounts) {
    const accounts = await connectedAccounts(core.client);
    targets.forEach((t, i) => {
      const account = accounts?.find((a) => a.id === t.social_account_id);
      if (accounts && !account) {
        issues.push({
          path: `target[${i}]`,
          message: `no connected account has the id ${t.social_account_id} (see \`postdesk accounts\`)`,
        });
      } else if (account && account.platform !== t.platform) {
        issues.push({
          path: `target[${i}]`,
          message: `account ${t.social_account_id} is a ${account.platform} account, not ${t.platform}`,
        });
      }
    });
  }
  if (issues.length) throw new ValidationError(issues, null, 'argument');
}

interface CreateOpts {
  caption: string;
  target: string[];
  media: string[];
  title?: string;
  draft?: boolean;
  at?: string;
  now?: boolean;
  queue?: boolean;
  wait: number;
}

/** `--wait`: an hour at most; longer belongs to the outbox (it keeps trying on every later command). */
const WAIT_MAX_SECONDS = 3600;

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerPostsCommand(program: Command, deps: CliDeps): void {
  const posts = commandGroup(
    program,
    'posts',
    'social posts: list, show, create (draft, schedule, publish now), update, delete',
  );

  defaultCommand(posts, 'list', 'post deliveries (one row per platform target)')
    .addOption(new Option('--status <status>', 'only deliveries in this status').choices(DELIVERY_STATUSES))
    .addOption(new Option('--platform <platform>', 'only this platform').choices(PLATFORMS))
    .option(
      '--limit <n>',
      `1 to ${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeDefault.posts}); with --page, rows per page`,
      positiveInt('--limit', LIMITS.pageSizeMax),
    )
    .option(
      '--page <n>',
      'this page of every delivery seen (newest first), --limit rows each',
      positiveInt('--page'),
    )
    .option('--all', 'every delivery seen, not only the newest the service lists, printed as it is read')
    .action(
      async (
        opts: {
          status?: (typeof DELIVERY_STATUSES)[number];
          platform?: (typeof PLATFORMS)[number];
          limit?: number;
          page?: number;
          all?: boolean;
        },
        cmd: Command,
      ) => {
        if (opts.all && opts.page !== undefined) {
          throw new ValidationError(
            [{ path: '--page', message: 'give --page or --all, not both' }],
            null,
            'argument',
          );
        }
        if (opts.all || opts.page !== undefined) return listPostPages(deps, cmd, opts);
        const out = deps.output(cmd);
        const core = await deps.core(cmd);
        const res = await out.spin('listing posts', () =>
          core.client.listPosts({ status: opts.status, platform: opts.platform, limit: opts.limit }),
        );
        out.result(res, () => printDeliveries(out, res.posts));
      },
    );

  posts
    .command('show <id>')
    .alias('get')
    .description(
      'one post and all its deliveries, by delivery id or post id (from the posts seen on this machine, then the service)',
    )
    .action((id: string, _opts: unknown, cmd: Command) => showPost(deps, cmd, id));

  postContentOptions(
    posts
      .command('create')
      .description(
        'create a post through the outbox: a draft (--draft), a schedule (--at) or a publish now (--now)',
      ),
  )
    .option('--draft', 'create a draft')
    .option(
      '--at <date-time>',
      "schedule at this time: 2030-01-01 09:00 (this machine's zone, or TZ) or 2030-01-01T09:00:00Z",
    )
    .option('--now', 'publish immediately')
    .option('--queue', 'only write it to the outbox; the next postdesk command (or `outbox flush`) sends it')
    .option(
      '--wait <seconds>',
      'how long to keep trying before leaving it queued',
      positiveInt('--wait', WAIT_MAX_SECONDS, 'seconds'),
      20,
    )
    .action(async (opts: CreateOpts, cmd: Command) => {
      const out = deps.output(cmd);
      const modes = [opts.draft, opts.at !== undefined, opts.now].filter(Boolean).length;
      if (modes !== 1) {
        throw new ValidationError(
          [{ path: 'mode', message: 'choose exactly one of --draft, --at <date-time> or --now' }],
          null,
          'argument',
        );
      }
      const req: CreatePostRequest = {
        caption: opts.caption,
        targets: requiredTargets(opts.target),
        media: parseMedia(opts.media),
      };
      if (opts.title !== undefined) req.title = opts.title;
      if (opts.draft) req.action = 'draft';
      const zone = localZoneOf(deps.io.env);
      // A time that cannot be read is refused before anything else; a past one by the service's clock, below.
      if (opts.at !== undefined) parseDateTime(opts.at, 'at', { zone });

      const core = await deps.core(cmd);
      if (opts.at !== undefined)
        req.scheduled_at = futureDateTime(opts.at, 'at', zone, await serviceNow(core.client, !opts.queue));
      // Without a key nothing could be sent: say so now rather than queue a post that waits for a login.
      if ((await core.apiKeySource()) === 'none') {
        throw new CredentialMissingError(
          'createPost',
          'an API key',
          'run `postdesk login` or set POSTDESK_API_KEY',
        );
      }
      // `--queue` is for working offline: the accounts are not listed then.
      await out.spin('checking the targets', () => checkTargets(core, req.targets, !opts.queue));
      // Each platform's own rules: what certainly fails there stops here (exit 2); the rest is a warning.
      // Loaded here only: counting as X does (twitter-text) takes a fifth of a second, which `posts list` never pays.
      const { warnOrRefuseRules } = await import('../post-rules-check');
      warnOrRefuseRules(out, req);
      const { entryId } = core.outbox.enqueuePost(req);
      let entry = core.outbox.get(entryId) as OutboxEntry;
      if (!opts.queue) {
        entry = await out.spin('sending', () => core.outbox.settle(entryId, { timeoutMs: opts.wait * 1000 }));
      }
      out.result(entryJson(entry), () => {
        const c = out.colors;
        if (entry.state === 'sent') {
          const what =
            req.action === 'draft'
              ? 'draft created'
              : req.scheduled_at
                ? `scheduled for ${req.scheduled_at}${zoneNote(opts.at ?? '', zone)}`
                : 'published';
          out.line(`${c.green('✓')} ${what}: post ${entry.result?.postId}`);
          out.line(`  deliveries: ${entry.result?.socialPostIds.join(', ')}`);
        } else if (entry.state === 'failed') {
          // A refusal is an error, and errors go to stderr.
          out.warn(`${c.red('✗')} the service refused the post: ${entry.error?.message ?? ''}`);
        } else if (entry.state === 'needs_decision') {
          out.line(
            `${c.yellow('?')} Postdesk cannot tell whether the service published it (entry ${entry.id})`,
          );
          out.line('  it is not sent again on its own: see `postdesk outbox list`');
        } else {
          out.line(`${c.yellow('…')} queued in the outbox (${entry.state}) as ${entry.id}`);
          out.line('  it is sent by the next postdesk command or `postdesk outbox flush`');
          if (entry.error) out.line(`  last error: ${entry.error.message}`);
        }
      });
      if (entry.state === 'failed') deps.setExitCode(EXIT.service);
      else if (entry.state === 'needs_decision') deps.setExitCode(EXIT.other);
      else if (entry.state !== 'sent' && !opts.queue) deps.setExitCode(EXIT.network);
    });

  posts
    .command('update [id]')
    .description(
      'change a draft or scheduled post (delivery id or parent post id), or with --shift move every post the filters match',
    )
    .option('-c, --caption <text>', `new caption (max ${LIMITS.captionLength} characters)`)
    .option('--at <date-time>', 'new schedule time, in the future')
    .addOption(
      new Option(
        '--status <status>',
        'draft cancels the schedule; with --shift, only posts in this status',
      ).choices(UpdatePostRequest.shape.status.unwrap().options),
    )
    .option(
      '--add-target <platform:account_id>',
      `add targets (max ${LIMITS.addTargetsPerUpdate})`,
      collect,
      [],
    )
    .option('--shift <amount>', 'move every matching scheduled post by 2d, -3h or 90m (100 a request)')
    .addOption(
      new Option('--platform <platform>', 'with --shift: only posts to this platform').choices(PLATFORMS),
    )
    .option('--account <account_id>', 'with --shift: only posts to this account')
    .option('--from <date-time>', 'with --shift: only posts scheduled at or after this time')
    .option('--to <date-time>', 'with --shift: only posts scheduled before this time')
    .option('--dry-run', 'with --shift: show what would move; send nothing')
    .option(
      '-y, --yes',
      `with --shift: move more than ${LIMITS.bulkUpdateSize} posts without showing them first`,
    )
    .action(
      async (
        id: string | undefined,
        opts: Partial<ShiftOptions> & {
          caption?: string;
          at?: string;
          status?: 'draft' | 'scheduled';
          addTarget: string[];
        },
        cmd: Command,
      ) => {
        if (opts.shift !== undefined) {
          if (
            id !== undefined ||
            opts.caption !== undefined ||
            opts.at !== undefined ||
            opts.addTarget.length
          ) {
            throw new ValidationError(
              [
                {
                  path: 'shift',
                  message:
                    '--shift moves the posts the filters match: give no id, --caption, --at or --add-target with it',
                },
              ],
              null,
              'argument',
            );
          }
          await shiftPosts(deps, cmd, { ...opts, shift: opts.shift });
          return;
        }
        if (id === undefined) {
          throw new ValidationError(
            [{ path: 'id', message: 'give the post or delivery id to change, or --shift with filters' }],
            null,
            'argument',
          );
        }
        const body: UpdatePostRequest = { id };
        if (opts.caption !== undefined) body.caption = opts.caption;
        if (opts.at !== undefined) parseDateTime(opts.at, 'at');
        if (opts.status !== undefined) body.status = opts.status;
        if (opts.addTarget.length) body.add_targets = parseTargets(opts.addTarget, 'add-target');
        if (opts.at !== undefined)
          body.scheduled_at = futureDateTime(
            opts.at,
            'at',
            undefined,
            await serviceNow((await deps.core(cmd)).client),
          );
        await updateOnePost(deps, cmd, body);
      },
    );

  posts
    .command('retry <id>')
    .description(
      'make a failed delivery again for its account, exactly once, then remove the failed one: now, --at a time, or --queue',
    )
    .option('--at <date-time>', 'schedule the retry at this ISO 8601 date-time with offset')
    .option('--queue', "schedule the retry at the account's next free queue slot")
    .option('--all-failed', 'every failed delivery of the post (id: a post id or any of its delivery ids)')
    .option(
      '--wait <seconds>',
      'how long to keep trying before leaving it to the outbox',
      positiveInt('--wait', WAIT_MAX_SECONDS, 'seconds'),
      20,
    )
    .action((id: string, opts: RetryOptions, cmd: Command) => retryPosts(deps, cmd, id, opts));

  posts
    .command('delete <id>')
    .description(`delete a delivery (${DELETABLE_STATUSES.join(', ')})`)
    .action(async (given: string, _opts: unknown, cmd: Command) => {
      const id = postId(given, 'id');
      await deleteOnePost(deps, cmd, id);
    });
}
