import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { BridgeError } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { useServiceNow } from '../../app/use-now';
import { PLATFORM_META } from '../../app/platforms';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/states';
import { PostPreviews } from '../compose/PostPreviews';
import { usePostsStore, type PostChange } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import { offersOn } from './delivery-actions';
import {
  AddAccounts,
  CaptionField,
  DialogFooter,
  DialogHead,
  WhenField,
  type Action,
  type DialogContext,
} from './PostDialogParts';

/** One delivery: edit its caption, reschedule, cancel to draft, add targets, or delete it. */
export function PostDialog({
  delivery,
  accounts,
  onClose,
}: {
  readonly delivery: Delivery;
  readonly accounts: readonly Account[];
  readonly onClose: () => void;
}) {
  const { update, remove, deliveriesOf } = usePostsStore(
    useShallow((s) => ({ update: s.update, remove: s.remove, deliveriesOf: s.deliveriesOf })),
  );
  // The post's every delivery, whatever the list shows: what a caption or a cancel reaches, and which
  // accounts it goes to already (never offered again).
  const [post, setPost] = useState<readonly Delivery[] | null>(null);
  useEffect(() => {
    let live = true;
    void deliveriesOf(delivery.post_id).then((r) => live && setPost(r.ok ? r.value : [delivery]));
    return () => {
      live = false;
    };
  }, [deliveriesOf, delivery]);
  const [caption, setCaption] = useState(delivery.caption);
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<{ action: Action; error: Readonly<BridgeError> } | null>(null);
  const now = useServiceNow();

  const account = accounts.find((a) => a.id === delivery.social_account_id);
  // What the transition table allows this delivery; a missing action says why where it would have been.
  const editable = offersOn(delivery, 'edit');
  const targets = useMemo(
    () => new Set([delivery.social_account_id, ...(post ?? []).map((d) => d.social_account_id)]),
    [delivery, post],
  );
  const candidates = useMemo(
    () =>
      post === null
        ? []
        : accounts.filter((a) => !targets.has(a.id) && !PLATFORM_META[a.platform].postsUnavailable),
    [accounts, targets, post],
  );
  const reach = Math.max(1, post?.length ?? 1);

  const run = async (action: Action, change: PostChange | null, done: string) => {
    setBusy(action);
    setError(null);
    const r = change ? await update(delivery.id, change) : await remove(delivery.id);
    setBusy(null);
    if (!r.ok) {
      setError({ action, error: r.error });
      return;
    }
    toast('success', done);
    onClose();
  };
  const ctx: DialogContext = {
    delivery,
    reach,
    all: reach > 1 ? `all ${reach} deliveries of this post` : 'this post',
    busy,
    error,
    run,
  };

  return (
    // Titled by what it offers: a published post is opened to read, not to edit.
    <Dialog open title={editable ? 'Edit post' : 'Post details'} onClose={onClose} wide>
      <DialogHead delivery={delivery} {...(account ? { account } : {})} />
      {editable ? (
        <>
          <CaptionField ctx={ctx} caption={caption} onCaption={setCaption} />
          <PostPreviews caption={caption} deliveries={post ?? [delivery]} />
          <WhenField ctx={ctx} now={now} />
        </>
      ) : (
        <div className="field">
          <span className="field__label">Caption</span>
          <p className="post-dialog__caption">
            {delivery.caption ? plainName(delivery.caption) : <span className="faint">(no caption)</span>}
          </p>
        </div>
      )}
      {editable && candidates.length > 0 ? <AddAccounts ctx={ctx} candidates={candidates} /> : null}
      {error?.action === 'cancel' ? <ErrorAlert error={error.error} context="update" /> : null}
      {error?.action === 'delete' ? (
        <ErrorAlert error={error.error} context="delete" title="Not deleted" />
      ) : null}
      <DialogFooter
        ctx={ctx}
        where={account?.name ?? PLATFORM_META[delivery.platform].label}
        onClose={onClose}
      />
    </Dialog>
  );
}
