import { create } from 'zustand';
import type { Delivery } from '../../../src-shared/api/posts';
import type { AssistantTool, Proposal } from '../../../src-shared/ipc';
import type { AccountQueue } from '../../../src-shared/queue';
import { bridge, settle } from './bridge';

/** The first-run checklist's steps, in the order a newcomer meets them. */
export const FIRST_RUN_STEPS = ['times', 'post', 'approve', 'assistant'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];

/** Each step: done, not done, or not known (its source did not answer). */
export type FirstRunProgress = Readonly<Record<FirstRunStep, boolean | null>>;

/** A delivery as these rules read it: `run_id` is the service's link to the run that made its post. */
type Row = Pick<Delivery, 'status' | 'scheduled_at'> & { readonly run_id?: unknown };

/** How many of the newest deliveries are read to tell whether a first post or an approval exists. */
const READ = 100;

/** Posting times are set: some account's queue holds at least one weekly slot. */
export const hasPostingTimes = (queues: readonly Pick<AccountQueue, 'slots'>[]): boolean =>
  queues.some((q) => q.slots.length > 0);

/** A first post exists: a post no automation made (every run's post carries its `run_id`). */
export const hasOwnPost = (deliveries: readonly Row[]): boolean => deliveries.some((d) => !d.run_id);

/**
 * An inbox item was approved: a run's draft that left the draft state with a time (approving always sets one: now
 * is sent as the soonest future minute; an auto-mode run's post is published at once, with none), or an AI
 * assistant's request that a person approved.
 */
export const hasApproval = (
  deliveries: readonly Row[],
  proposals: readonly Pick<Proposal, 'state'>[],
): boolean =>
  deliveries.some((d) => Boolean(d.run_id) && d.status !== 'draft' && d.scheduled_at !== null) ||
  proposals.some((p) => p.state !== 'pending' && p.state !== 'rejected');

/**
 * An AI assistant is connected: `postdesk mcp` has started for one (it records the tools the service offered then,
 * listed with `chosen: false` unless a policy names them) or an assistant has called a tool.
 */
export const hasAssistant = (tools: readonly Pick<AssistantTool, 'chosen'>[], activity: number): boolean =>
  activity > 0 || tools.some((t) => !t.chosen);

interface FirstRunState {
  readonly progress: FirstRunProgress | null;
  /** Reads every step from what the service and this computer hold (never from a flag of its own). */
  load(): Promise<void>;
}

export const useFirstRunStore = create<FirstRunState>()((set) => ({
  progress: null,
  async load() {
    const b = bridge();
    const [queues, posts, proposals, tools, activity] = await Promise.all([
      settle(() => b.queue.schedules()),
      settle(() => b.posts.list({ limit: READ, refresh: true })),
      settle(() => b.assistant.proposals({ all: true })),
      settle(() => b.assistant.tools({})),
      settle(() => b.assistant.activity({ limit: 1 })),
    ]);
    set({
      progress: {
        times: queues.ok ? hasPostingTimes(queues.value.queues) : null,
        post: posts.ok ? hasOwnPost(posts.value.posts) : null,
        approve: posts.ok
          ? hasApproval(posts.value.posts, proposals.ok ? proposals.value.proposals : [])
          : null,
        assistant:
          tools.ok && activity.ok ? hasAssistant(tools.value.tools, activity.value.activity.length) : null,
      },
    });
  },
}));
