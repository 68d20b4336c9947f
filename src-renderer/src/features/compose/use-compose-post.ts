import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Platform, Target } from '../../../../src-shared/api/common';
import type { BridgeError } from '../../../../src-shared/ipc';
import { formatDateTime, fromLocalInput, plural } from '../../app/format';
import { navigate } from '../../app/router';
import { serviceNow, useServiceNow } from '../../app/use-now';
import { PLATFORM_META } from '../../app/platforms';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useComposeStore } from '../../stores/use-compose-store';
import { useMediaStore } from '../../stores/use-media-store';
import { isOutboxQueued, useOutboxStore } from '../../stores/use-outbox-store';
import { usePostsStore } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import type { PreviewMedia } from './CaptionPreviews';
import { checkCompose } from './compose-checks';

const QUEUED_NOTICE = 'Saved on this computer; it will be sent as soon as the service answers.';

/**
 * The post being written, as every part of the composer reads it: the accounts it goes to, its previews' media,
 * its checks, and `send`, which the Send button and Ctrl/Cmd+Enter both call (so both check the same).
 */
export function useComposePost() {
  const accounts = useAccountsStore((s) => s.accounts);
  const items = useMediaStore((s) => s.items);
  const draft = useComposeStore(
    useShallow((s) => ({ caption: s.caption, accountIds: s.accountIds, when: s.when, localAt: s.localAt })),
  );
  const createPost = usePostsStore((s) => s.create);
  const loadQueued = useOutboxStore((s) => s.load);
  const sent = useComposeStore((s) => s.sent);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const now = useServiceNow();

  const { caption, when, localAt } = draft;
  const selected = useMemo(() => new Set(draft.accountIds), [draft.accountIds]);
  const accountList = useMemo(() => accounts.data ?? [], [accounts.data]);
  const chosen = useMemo(
    () => accountList.filter((a) => selected.has(a.id) && !PLATFORM_META[a.platform].postsUnavailable),
    [accountList, selected],
  );
  const targets: Target[] = useMemo(
    () => chosen.map((a) => ({ social_account_id: a.id, platform: a.platform })),
    [chosen],
  );
  const platforms = useMemo(() => [...new Set(targets.map((t) => t.platform))] as Platform[], [targets]);
  const previewMedia = useMemo<PreviewMedia[]>(
    () =>
      items.map((i) => ({
        name: i.file.name,
        src: i.file.preview_url ?? i.localPreview,
        kind: i.file.kind,
        width: i.inspection?.width,
        height: i.inspection?.height,
      })),
    [items],
  );
  const uploaded = items.flatMap((i) => (i.uploaded ? [{ asset_id: i.uploaded.asset_id }] : []));
  const scheduledAt = when === 'schedule' ? fromLocalInput(localAt) : null;
  const checks = useMemo(
    () =>
      checkCompose({
        caption,
        platforms,
        targetCount: targets.length,
        media: items.map((i) => ({
          phase: i.phase,
          kind: i.file.kind === 'other' ? 'unknown' : i.file.kind,
          durationSeconds: i.inspection?.duration_seconds,
          width: i.inspection?.width,
          height: i.inspection?.height,
        })),
        when,
        scheduledAt,
        now,
      }),
    [caption, platforms, targets.length, items, when, scheduledAt, now],
  );

  // The screen's "now" may be up to a tick old: the last word on "in the future" is the service's time at Send.
  const stillFuture = () => !scheduledAt || Date.parse(scheduledAt) > serviceNow();

  /** Sends the post when nothing holds it back; false when something did (the checks say what). */
  const send = async (): Promise<boolean> => {
    if (checks.blockers.length > 0 || submitting || !stillFuture()) return false;
    setSubmitting(true);
    setError(null);
    const r = await createPost({
      caption,
      media: uploaded,
      targets,
      ...(when === 'draft' ? { action: 'draft' as const } : {}),
      ...(when === 'schedule' && scheduledAt ? { scheduled_at: scheduledAt } : {}),
    });
    setSubmitting(false);
    if (!r.ok && isOutboxQueued(r.error)) {
      // Not a failure: the host holds the post and sends it itself. Creating it again would duplicate it.
      void loadQueued();
      toast('warning', QUEUED_NOTICE);
    } else if (!r.ok) {
      setError(r.error);
      return true;
    } else {
      const where = plural(r.value.count, 'account');
      toast(
        'success',
        when === 'draft'
          ? `Draft saved for ${where}.`
          : when === 'schedule'
            ? `Scheduled for ${formatDateTime(scheduledAt)} on ${where}.`
            : `Publishing to ${where}.`,
      );
    }
    await sent();
    navigate('posts');
    return true;
  };

  return {
    accounts,
    accountList,
    selected,
    chosen,
    targets,
    platforms,
    previewMedia,
    uploaded,
    caption,
    when,
    localAt,
    scheduledAt,
    now,
    checks,
    submitting,
    error,
    send,
  };
}

export type ComposePost = ReturnType<typeof useComposePost>;
