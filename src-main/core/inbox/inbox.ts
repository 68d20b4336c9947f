import { LIMITS } from '../../../src-shared/api/limits';
import type { Delivery, UpdatePostRequest } from '../../../src-shared/api/posts';
import type { InboxDraft, InboxGroup, InboxList, InboxMedia, InboxRun } from '../../../src-shared/ipc/inbox';
import type { ApiClient } from '../api/client';
import { createLimit } from '../common/limit';
import type { SingleChange } from '../outbox/change-plans';

/**
 * The agent inbox: the drafts automation runs made, waiting for a person. A draft belongs here when its
 * deliveries carry the `run_id` of the run that made it (the sandbox links every post a run completes to it,
 * docs/sandbox-agent.md); a draft made by hand has none and never appears. Nothing is kept locally: a draft
 * stays in the inbox exactly as long as the service holds it as a draft.
 */

export type InboxClient = Pick<ApiClient, 'listPosts' | 'updatePost' | 'deletePost' | 'clock'>;

/** What this computer knows of a run: which automation it was, and how it went. */
export interface KnownRun {
  readonly local_id: string;
  readonly automation_id: string;
  readonly automation_name: string | null;
  readonly state: InboxRun['state'];
  readonly scheduled_for: string | null;
  readonly finished_at: string | null;
}

export interface InboxDeps {
  readonly client: () => Promise<InboxClient>;
  /** The local executor's runs by service run id (those it does not know are absent). */
  readonly runs: (runIds: readonly string[]) => Promise<ReadonlyMap<string, KnownRun>>;
  readonly now?: () => Date;
  /**
   * Sends one post's update or delete through the outbox's change record (recorded before it is sent, a lost
   * answer read back, never applied twice), throwing a refusal or a lost answer; without it, straight to the
   * client (tests of the inbox alone).
   */
  readonly change?: (change: SingleChange) => Promise<unknown>;
}

/** One draft's outcome; `error` is what was thrown, for the caller to word (bridge or terminal). */
export interface InboxResult {
  readonly post_id: string;
  readonly ok: boolean;
  readonly scheduled_at?: string | null;
  readonly error: unknown;
}

/** The inbox as the bridge and the terminal show it: the contract's list, declared there once. */
export type InboxSnapshot = Readonly<InboxList>;

/** The service takes only future times: "approve now" asks for the soonest time that is safely future. */
export const APPROVE_NOW_LEAD_MS = 60_000;
/** PATCH and DELETE calls in flight at once when acting on many drafts. */
const PARALLEL = 4;

export class NotInInboxError extends Error {
  constructor(readonly postId: string) {
    super('This draft is no longer in the inbox: it was approved, rejected or changed elsewhere.');
    this.name = 'NotInInboxError';
  }
}

const runIdOf = (d: Delivery): string | null =>
  typeof d['run_id'] === 'string' && d['run_id'].length > 0 ? d['run_id'] : null;

function mediaKind(m: { url: string; mime_type?: unknown }): InboxMedia['kind'] {
  const mime = typeof m.mime_type === 'string' ? m.mime_type : '';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(m.url)?.[1]?.toLowerCase() ?? '';
  if (['jpg', 'jpeg', 'png', 'webp', 'gif'].includes(ext)) return 'image';
  if (['mp4', 'mov', 'webm'].includes(ext)) return 'video';
  return 'other';
}

function mediaName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 120) : 'media';
  } catch {
    return 'media';
  }
}

/** The drafts of automation runs among these deliveries, one per post, newest first. */
export function draftsOf(
  deliveries: readonly Delivery[],
): Array<{ draft: Omit<InboxDraft, 'run'>; runId: string; urls: string[] }> {
  const byPost = new Map<string, Delivery[]>();
  for (const d of deliveries) {
    if (d.status !== 'draft' || runIdOf(d) === null) continue;
    const list = byPost.get(d.post_id) ?? [];
    list.push(d);
    byPost.set(d.post_id, list);
  }
  const drafts = [...byPost.values()].map((ds) => {
    const first = ds[0] as Delivery;
    const media = first.media ?? [];
    return {
      runId: runIdOf(first) as string,
      urls: media.map((m) => m.url),
      draft: {
        post_id: first.post_id,
        caption: first.caption,
        created_at: ds.map((d) => d.created_at).sort()[0] as string,
        targets: ds.map((d) => ({
          delivery_id: d.id,
          platform: d.platform,
          social_account_id: d.social_account_id,
        })),
        media: media.map((m, index) => ({ index, kind: mediaKind(m), name: mediaName(m.url) })),
      },
    };
  });
  return drafts.sort((a, b) => Date.parse(b.draft.created_at) - Date.parse(a.draft.created_at));
}

export interface Inbox {
  list(filter?: { run_id?: string | undefined }): Promise<InboxSnapshot>;
  approve(postIds: readonly string[], at?: string): Promise<readonly InboxResult[]>;
  /**
   * Approves each draft at the time `when` picks for it (the posting queue's next free slot), one after another, so
   * each draft's slot is taken before the next one is placed.
   */
  approveEach(
    postIds: readonly string[],
    when: (draft: Omit<InboxDraft, 'run'>) => Promise<string>,
  ): Promise<readonly InboxResult[]>;
  reject(postIds: readonly string[]): Promise<readonly InboxResult[]>;
  edit(postId: string, caption: string): Promise<InboxResult>;
  /** The address of one media item of a listed draft (from the last list), or null. */
  mediaUrl(postId: string, index: number): string | null;
}

export function createInbox(deps: InboxDeps): Inbox {
  const now = deps.now ?? (() => new Date());
  /** Media addresses of the drafts last listed: previews are asked for by draft and index, never by address. */
  let lastUrls = new Map<string, readonly string[]>();

  /**
   * "Now" as the service counts it (its `Date` header, a sandbox's virtual clock included): a time a minute after
   * this computer's clock is in the past to a service whose clock runs ahead. Asked of the service once if no answer
   * has said it yet; `deps.now` only when the client cannot tell.
   */
  const serviceNow = async (): Promise<Date> => {
    const client = await deps.client();
    const clock = client.clock;
    if (!clock) return now();
    if (!clock.known()) await client.listPosts({ status: 'draft', limit: 1 }).catch(() => undefined);
    return clock.known() ? clock.now() : now();
  };

  const read = async () => {
    const client = await deps.client();
    const { posts } = await client.listPosts({ status: 'draft', limit: LIMITS.pageSizeMax });
    return { client, drafts: draftsOf(posts), truncated: posts.length >= LIMITS.pageSizeMax };
  };

  /** Runs `act` on each draft still in the inbox; the others fail alone, as `NotInInboxError`. */
  const update = (client: InboxClient, body: UpdatePostRequest): Promise<unknown> =>
    deps.change ? deps.change({ op: 'update', body }) : client.updatePost(body);
  const remove = (client: InboxClient, id: string): Promise<unknown> =>
    deps.change ? deps.change({ op: 'delete', id }) : client.deletePost({ id });

  const each = async (
    postIds: readonly string[],
    act: (client: InboxClient, draft: Omit<InboxDraft, 'run'>) => Promise<Partial<InboxResult>>,
    parallel = PARALLEL,
  ): Promise<InboxResult[]> => {
    const { client, drafts } = await read();
    const held = new Map(drafts.map((d) => [d.draft.post_id, d.draft]));
    const limit = createLimit(parallel);
    return Promise.all(
      [...new Set(postIds)].map((post_id) =>
        limit(async (): Promise<InboxResult> => {
          const draft = held.get(post_id);
          if (!draft) return { post_id, ok: false, error: new NotInInboxError(post_id) };
          try {
            return { post_id, ok: true, error: null, ...(await act(client, draft)) };
          } catch (error) {
            return { post_id, ok: false, error };
          }
        }),
      ),
    );
  };

  return {
    async list(filter = {}) {
      const { drafts, truncated } = await read();
      lastUrls = new Map(drafts.map((d) => [d.draft.post_id, d.urls]));
      const shown = filter.run_id ? drafts.filter((d) => d.runId === filter.run_id) : drafts;
      const known = await deps.runs([...new Set(shown.map((d) => d.runId))]);
      const groups = new Map<string, InboxGroup & { drafts: InboxDraft[] }>();
      for (const { draft, runId } of shown) {
        const run = known.get(runId);
        const key = run?.automation_id ?? '';
        const group = groups.get(key) ?? {
          automation_id: run?.automation_id ?? null,
          automation_name: run?.automation_name ?? null,
          drafts: [],
        };
        group.drafts.push({
          ...draft,
          run: {
            id: runId,
            local_id: run?.local_id ?? null,
            state: run?.state ?? null,
            scheduled_for: run?.scheduled_for ?? null,
            finished_at: run?.finished_at ?? null,
          },
        });
        groups.set(key, group);
      }
      // Drafts are newest first, so the groups come in the order of their newest draft.
      return { groups: [...groups.values()], total: shown.length, truncated };
    },

    async approve(postIds, at) {
      const when = at ?? new Date((await serviceNow()).getTime() + APPROVE_NOW_LEAD_MS).toISOString();
      return each(postIds, async (client, draft) => {
        await update(client, { id: draft.post_id, status: 'scheduled', scheduled_at: when });
        return { scheduled_at: when };
      });
    },

    approveEach(postIds, when) {
      return each(
        postIds,
        async (client, draft) => {
          const at = await when(draft);
          await update(client, { id: draft.post_id, status: 'scheduled', scheduled_at: at });
          return { scheduled_at: at };
        },
        1,
      );
    },

    reject(postIds) {
      // The contract deletes by delivery id: one call per delivery of the draft, in turn.
      return each(postIds, async (client, draft) => {
        for (const t of draft.targets) await remove(client, t.delivery_id);
        return {};
      });
    },

    async edit(postId, caption) {
      const [result] = await each([postId], async (client, draft) => {
        await update(client, { id: draft.post_id, caption });
        return {};
      });
      return result as InboxResult;
    },

    mediaUrl(postId, index) {
      return lastUrls.get(postId)?.[index] ?? null;
    },
  };
}
