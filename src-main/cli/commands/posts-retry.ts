import type { Command } from 'commander';
import type { Delivery } from '../../../src-shared/api/posts';
import { ValidationError } from '../../core/api/errors';
import { createDeliveryFeed } from '../../core/deliveries/delivery-feed';
import {
  failedOf,
  removeRetried,
  retryDelivery,
  RetryFailedError,
  RetryRefusedError,
  type RetryResult,
} from '../../core/post-state/retry';
import { futureDateTime, parseDateTime } from '../args';
import { serviceNow } from '../service-now';
import type { CliDeps } from '../context';
import { EXIT, NotFoundError } from '../exit-codes';
import type { Output } from '../output';
import { queueServiceFor } from './queue';
import { recordScope } from './upload';

export interface RetryOptions {
  at?: string;
  queue?: boolean;
  allFailed?: boolean;
  wait: number;
}

interface Row {
  readonly delivery_id: string;
  readonly platform: string;
  readonly ok: boolean;
  readonly state: RetryResult['state'] | 'failed';
  readonly post_id: string | null;
  readonly removed: boolean;
  readonly resumed: boolean;
  /** Why the delivery had failed (kept with the new one), or why the retry was refused. */
  readonly reason: string | null;
  readonly error: string | null;
}

/**
 * `posts retry <id>`: the same post made again for a failed delivery's account, now (default), at `--at`, or at the
 * account's next queue slot (`--queue`), exactly once through the outbox, then the failed delivery removed. `id` is
 * a delivery id, or a post id with one failed delivery (`--all-failed`: every failed delivery of the post). Running
 * it again after a crash or a lost answer finishes the first retry; it never makes a second post.
 */
export async function retryPosts(deps: CliDeps, cmd: Command, id: string, opts: RetryOptions): Promise<void> {
  const out = deps.output(cmd);
  if (opts.at !== undefined && opts.queue)
    throw new ValidationError(
      [{ path: 'at', message: 'choose --at <date-time> or --queue, not both' }],
      null,
      'argument',
    );
  if (opts.at !== undefined) parseDateTime(opts.at, 'at');
  const core = await deps.core(cmd);
  const at =
    opts.at === undefined
      ? undefined
      : futureDateTime(opts.at, 'at', undefined, await serviceNow(core.client));
  const scope = recordScope(core);
  const feed = createDeliveryFeed({ store: core.store, client: () => client, scope: () => scope });
  const client = feed.observe(core.client, () => scope);
  const deps2 = { outbox: core.outbox, client, settleMs: opts.wait * 1000 };

  // A retry an earlier run started for this very delivery is finished, whatever the lists now say.
  const earlier = core.outbox.retryOf(id);
  let targets: Delivery[];
  if (earlier?.retryOf) {
    targets = [];
  } else {
    await out.spin('reading the posts', () => feed.refresh({ force: true }));
    const one = feed.index.get(scope, id);
    const ofPost = one ? feed.index.ofPost(scope, one.post_id) : feed.index.ofPost(scope, id);
    if (ofPost.length === 0) throw new NotFoundError(`no post or delivery ${id} is listed by the service`);
    const failed = failedOf(one && !opts.allFailed ? [one] : ofPost);
    // The ones an earlier run already retried are finished too.
    const retried = ofPost.filter((d) => core.outbox.retryOf(d.id) && !failed.includes(d));
    targets = [...failed, ...(opts.allFailed || !one ? retried : [])];
    if (targets.length === 0) {
      const why = one ? `it is ${one.status}; only a failed delivery can be retried` : 'nothing in it failed';
      throw new ValidationError(
        [{ path: 'id', message: `${id} cannot be retried: ${why}` }],
        null,
        'argument',
      );
    }
    if (targets.length > 1 && !opts.allFailed && !one)
      throw new ValidationError(
        [
          {
            path: 'id',
            message: `post ${id} has ${targets.length} failed deliveries: name one by its delivery id, or pass --all-failed`,
          },
        ],
        null,
        'argument',
      );
  }

  const rows: Row[] = [];
  if (earlier?.retryOf) {
    const settled = await out.spin('finishing the earlier retry', () =>
      core.outbox.settle(earlier.id, { timeoutMs: opts.wait * 1000 }),
    );
    const removed = await removeRetried(client, settled);
    rows.push({
      delivery_id: earlier.retryOf.delivery_id,
      platform: earlier.retryOf.platform,
      ok: settled.state === 'sent',
      state: settled.state === 'sent' ? 'sent' : settled.state === 'failed' ? 'failed' : 'queued',
      post_id: settled.result?.postId ?? null,
      removed,
      resumed: true,
      reason: earlier.retryOf.reason,
      error: settled.state === 'failed' ? (settled.error?.message ?? null) : null,
    });
  }
  const queue = opts.queue ? queueServiceFor(core) : null;
  for (const d of targets) {
    try {
      let when = at;
      if (queue && !core.outbox.retryOf(d.id)) {
        const [placement] = await queue.plan([
          { targets: [{ platform: d.platform, social_account_id: d.social_account_id }] },
        ]);
        when = placement?.[0]?.at.toISOString();
      }
      const r = await out.spin(`retrying on ${d.platform}`, () =>
        retryDelivery(deps2, d, { scheduled_at: when }, d.platform),
      );
      rows.push({
        delivery_id: d.id,
        platform: d.platform,
        ok: r.state === 'sent',
        state: r.state,
        post_id: r.post_id,
        removed: r.removed,
        resumed: r.resumed,
        reason: d.last_error ?? null,
        error: null,
      });
    } catch (err) {
      if (!(err instanceof RetryRefusedError || err instanceof RetryFailedError)) throw err;
      rows.push({
        delivery_id: d.id,
        platform: d.platform,
        ok: false,
        state: 'failed',
        post_id: null,
        removed: false,
        resumed: false,
        reason: d.last_error ?? null,
        error: err.message,
      });
    }
  }

  printRetries(out, rows);
  if (rows.some((r) => r.state === 'failed')) deps.setExitCode(EXIT.service);
  else if (rows.some((r) => r.state !== 'sent')) deps.setExitCode(EXIT.network);
}

/** What each retry became, a line per delivery (and the reason it had failed), or the rows as JSON. */
function printRetries(out: Output, rows: readonly Row[]): void {
  const c = out.colors;
  out.result({ results: rows }, () => {
    for (const r of rows) {
      const where = r.platform;
      if (r.state === 'sent')
        out.line(
          `${c.green('✓')} retried on ${where}: post ${r.post_id}${r.removed ? '; the failed delivery was removed' : ''}${r.resumed ? ' (finished an earlier retry)' : ''}`,
        );
      else if (r.state === 'failed') out.warn(`${c.red('✗')} not retried on ${where}: ${r.error ?? ''}`);
      else
        out.line(
          `${c.yellow('…')} the retry on ${where} is saved and sent later; run the same command again to finish it`,
        );
      if (r.reason) out.line(`  it had failed: ${r.reason}`);
    }
  });
}
