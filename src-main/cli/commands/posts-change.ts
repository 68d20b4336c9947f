import type { Command } from 'commander';
import { canDo, updateAction } from '../../../src-shared/api/delivery-transitions';
import type { Delivery, UpdatePostRequest } from '../../../src-shared/api/posts';
import { createDeliveryFeed } from '../../core/deliveries/delivery-feed';
import { openChangePlans, type SingleChange } from '../../core/outbox/change-plans';
import { changeOne, singleIntent, type SingleOutcome } from '../../core/post-changes/recorded-single';
import { refuseLocally } from '../transition-check';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import type { Output } from '../output';
import { printDeliveries } from './posts-show';

/**
 * `posts update <id>` and `posts delete <id>` through the outbox's change record: in the store before it is sent,
 * a lost answer read back from the service before anything is said, and a run killed midway finished by the same
 * command run again (never applied twice). The answer goes through the learning client, so the index holds it.
 */
async function send(deps: CliDeps, cmd: Command, change: SingleChange, verb: string): Promise<SingleOutcome> {
  const out = deps.output(cmd);
  const core = await deps.core(cmd);
  const scope = core.endpoint.sandbox ? 'sandbox' : core.endpoint.baseUrl;
  const feed = createDeliveryFeed({ store: core.store, client: () => client, scope: () => scope });
  const client = feed.observe(core.client, () => scope);
  const plans = openChangePlans(core.store, scope);
  // Refused here, in the app's words, when the transition table refuses it (exit 2, nothing sent). Not when an
  // earlier run of this same change is unfinished: the service may have applied it (a cancelled post is a draft
  // now), and the record finishes it instead.
  if (!plans.unfinished(singleIntent(change))) {
    const [id, action] =
      change.op === 'update' ? [change.body.id, updateAction(change.body)] : [change.id, 'delete' as const];
    const post = await out.spin('checking the post', () => refuseLocally(core, id, action));
    if (change.op === 'update' && change.body.caption !== undefined)
      await checkNewCaption(out, change.body.caption, post);
  }
  const outcome = await out.spin(verb, () => changeOne(client, plans, change));
  // A refusal heard now is reported as every refusal is (its exit code and words).
  if (outcome.state === 'failed' && outcome.cause !== undefined) throw outcome.cause;
  if (outcome.state === 'failed') deps.setExitCode(EXIT.service);
  if (outcome.state === 'unknown') deps.setExitCode(EXIT.network);
  return outcome;
}

/**
 * A new caption meets each platform's caption rules where the post can still be edited, as `posts create` checks
 * a new post's: past a limit it is a warning (stderr), and what certainly fails there stops here (exit 2). Only
 * the caption's rules: an edit cannot change the media, so their verdicts are not this command's to give.
 */
async function checkNewCaption(out: Output, caption: string, post: readonly Delivery[]): Promise<void> {
  const editable = post.filter((d) => canDo(d.status, 'edit'));
  if (editable.length === 0) return;
  // Loaded here only, as for `posts create`: counting as X does takes a fifth of a second.
  const { warnOrRefuseRules } = await import('../post-rules-check');
  warnOrRefuseRules(
    out,
    {
      caption,
      media: editable[0]?.media ?? [],
      targets: editable.map((d) => ({ platform: d.platform, social_account_id: d.social_account_id })),
    },
    (v) => v.rule === 'caption-length',
  );
}

function unknownWords(o: SingleOutcome): string {
  return `the service did not answer${o.error ? ` (${o.error})` : ''}; it may have applied it. Run the same command again: it reads the service back first and never applies it twice`;
}

export async function updateOnePost(deps: CliDeps, cmd: Command, body: UpdatePostRequest): Promise<void> {
  const out = deps.output(cmd);
  const o = await send(deps, cmd, { op: 'update', body }, 'updating');
  const json = {
    id: body.id,
    state: o.state,
    resumed: o.resumed,
    requests: o.requests,
    post_id: o.answer?.post_id ?? null,
    social_posts: o.answer?.social_posts ?? [],
    error: o.state === 'done' ? null : o.error,
  };
  out.result(json, () => {
    const c = out.colors;
    if (o.state === 'done') {
      out.line(`${c.green('✓')} updated post ${o.answer?.post_id ?? body.id}`);
      if (o.answer) printDeliveries(out, o.answer.social_posts);
    } else if (o.state === 'failed')
      out.warn(`${c.red('✗')} the service refused the update: ${o.error ?? ''}`);
    else out.warn(`${c.yellow('?')} ${unknownWords(o)}`);
  });
}

export async function deleteOnePost(deps: CliDeps, cmd: Command, id: string): Promise<void> {
  const out = deps.output(cmd);
  const o = await send(deps, cmd, { op: 'delete', id }, 'deleting');
  const json = {
    id,
    success: o.state === 'done',
    state: o.state,
    resumed: o.resumed,
    requests: o.requests,
    error: o.state === 'done' ? null : o.error,
  };
  out.result(json, () => {
    const c = out.colors;
    if (o.state === 'done') out.line(`${c.green('✓')} deleted ${id}`);
    else if (o.state === 'failed') out.warn(`${c.red('✗')} the service refused the delete: ${o.error ?? ''}`);
    else out.warn(`${c.yellow('?')} ${unknownWords(o)}`);
  });
}
