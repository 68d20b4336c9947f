import { useState } from 'react';
import { canDo } from '../../../../src-shared/api/delivery-transitions';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import type { BridgeResult } from '../../../../src-shared/ipc';
import { describeError } from '../../app/describe-error';
import type { MenuItem } from '../../components/MenuButton';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { usePostsStore } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import { tellRetry } from './RetryFailed';
import { offersOnPost, reachOf } from './delivery-actions';

/** A whole-post action that asks first (publish now): what the card's confirm strip shows. */
export interface Asking {
  readonly question: string;
  readonly yes: string;
  readonly run: () => void;
}

/**
 * What the "…" menu of one post offers, from the transition table (delivery-actions.ts): each item reaches the
 * deliveries that allow it. Publish now asks first, in the card's confirm strip (`asking`).
 */
export function usePostActions(
  g: PostGroup,
  onOpen: (deliveryId: string) => void,
  onExpand: (postId: string) => void,
  expanded: boolean,
): {
  readonly items: readonly MenuItem[];
  readonly asking: Asking | null;
  readonly cancelAsk: () => void;
  readonly busy: boolean;
} {
  const update = usePostsStore((s) => s.update);
  const duplicate = usePostGroupsStore((s) => s.duplicate);
  const publishNow = usePostGroupsStore((s) => s.publishNow);
  const retry = usePostGroupsStore((s) => s.retryDeliveries);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);

  const act = (run: () => Promise<BridgeResult<unknown>>, done: string | null, failed: string) => {
    setBusy(true);
    void run().then((r) => {
      setBusy(false);
      if (!r.ok) toast('error', `${failed}: ${describeError(r.error, 'update')}`);
      else if (done) toast('success', done);
    });
  };

  const editable = reachOf(g.deliveries, 'edit');
  const first = editable[0] ?? g.deliveries[0];
  const open = reachOf(g.deliveries, 'publishNow');
  const failed = g.deliveries.filter((d) => canDo(d.status, 'retry'));
  const items: MenuItem[] = [];
  if (first && editable.length > 0)
    items.push({ id: 'edit', label: 'Edit caption and time', run: () => onOpen(first.id) });
  items.push({
    id: 'deliveries',
    label: expanded ? 'Hide deliveries' : `Show deliveries (${g.deliveries.length})`,
    run: () => onExpand(g.post_id),
  });
  if (offersOnPost(g.deliveries, 'cancel') && first)
    items.push({
      id: 'cancel',
      label: 'Cancel to draft',
      run: () => act(() => update(first.id, { kind: 'cancel' }), 'Cancelled to draft.', 'Not cancelled'),
    });
  items.push({
    id: 'duplicate',
    label: 'Duplicate as draft',
    run: () => act(() => duplicate(g.post_id), 'Duplicated as a new draft.', 'Not duplicated'),
  });
  if (failed.length > 1)
    items.push({
      id: 'retry-all',
      label: `Retry all failed (${failed.length})`,
      run: () => {
        setBusy(true);
        void retry(g.post_id, null, { kind: 'now' }).then((r) => {
          setBusy(false);
          if (!r.ok) toast('error', `Not retried: ${describeError(r.error)}`);
          else tellRetry(r.value, '');
        });
      },
    });
  if (open.length > 0)
    items.push({
      id: 'publish',
      label: 'Publish now',
      run: () =>
        setAsking({
          question: `Publish to ${open.length} ${open.length === 1 ? 'account' : 'accounts'} now?`,
          yes: 'Yes, publish now',
          run: () => {
            setAsking(null);
            act(
              async () => {
                const r = await publishNow(g.post_id);
                if (r.ok && r.value.notRemoved > 0)
                  toast(
                    'warning',
                    'Published. The draft could not be removed; delete it yourself so it is not published twice.',
                  );
                return r;
              },
              'Published now.',
              'Not published',
            );
          },
        }),
    });
  return { items, asking, cancelAsk: () => setAsking(null), busy };
}
