import { create } from 'zustand';
import type { Platform, Target } from '../../../src-shared/api/common';
import type { CreatePostRequest, Delivery, DeliveryStatus } from '../../../src-shared/api/posts';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';

/** The Posts list's filters (the list and its pages are `use-post-groups-store`'s). */
export interface PostFilters {
  readonly status: DeliveryStatus | 'all';
  readonly platform: Platform | 'all';
}

export type PostChange =
  | { readonly kind: 'caption'; readonly caption: string }
  /** `schedule`: the delivery is a draft, so it also moves to `scheduled`. */
  | { readonly kind: 'reschedule'; readonly scheduledAt: string; readonly schedule?: boolean }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'addTargets'; readonly targets: readonly Target[] };

/** Changes to posts and their deliveries: create, update, delete, and what a change to one post reaches. */
interface PostsState {
  create(
    request: CreatePostRequest,
  ): Promise<BridgeResult<{ readonly postId: string; readonly count: number }>>;
  update(id: string, change: PostChange): Promise<BridgeResult<true>>;
  /** Every delivery of one post, whatever the list's filters: what a change to the post reaches. */
  deliveriesOf(postId: string): Promise<BridgeResult<readonly Delivery[]>>;
  remove(id: string): Promise<BridgeResult<true>>;
}

function fail(error: Readonly<BridgeError>): BridgeResult<never> {
  return { ok: false, error };
}

export const usePostsStore = create<PostsState>()(() => ({
  async create(request) {
    const r = await settle(() => bridge().posts.create(request));
    if (!r.ok) return fail(r.error);
    return { ok: true, value: { postId: r.value.post.id, count: r.value.social_posts.length } };
  },
  async update(id, change) {
    const input =
      change.kind === 'caption'
        ? { id, caption: change.caption }
        : change.kind === 'reschedule'
          ? {
              id,
              scheduled_at: change.scheduledAt,
              ...(change.schedule ? { status: 'scheduled' as const } : {}),
            }
          : change.kind === 'cancel'
            ? { id, status: 'draft' as const }
            : { id, add_targets: [...change.targets] };
    const r = await settle(() => bridge().posts.update(input));
    if (!r.ok) return fail(r.error);
    return { ok: true, value: true };
  },
  async deliveriesOf(postId) {
    const r = await settle(() => bridge().posts.list({ post_id: postId, limit: 1000 }));
    return r.ok ? { ok: true, value: r.value.posts } : r;
  },
  async remove(id) {
    const r = await settle(() => bridge().posts.delete({ id }));
    if (!r.ok) return fail(r.error);
    return { ok: true, value: true };
  },
}));
