import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Platform, Target } from '../../../../src-shared/api/common';
import type { BridgeError } from '../../../../src-shared/ipc';
import { LIMITS } from '../../../../src-shared/api/limits';
import { checkPost } from '../../../../src-shared/platform-check';
import { describeError } from '../../app/describe-error';
import {
  formatDateTime,
  formatRelative,
  fromLocalInput,
  localZone,
  plural,
  toLocalInput,
} from '../../app/format';
import { navigate } from '../../app/router';
import { useServiceNow } from '../../app/use-now';
import { PLATFORM_META } from '../../app/platforms';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { Segmented } from '../../components/Segmented';
import { AccountsGate } from '../../components/AccountsGate';
import { ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAppStore } from '../../stores/use-app-store';
import { useComposeStore } from '../../stores/use-compose-store';
import { useMediaStore } from '../../stores/use-media-store';
import { isOutboxQueued, useOutboxStore } from '../../stores/use-outbox-store';
import { usePostsStore } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import { CaptionEditor } from './CaptionEditor';
import { CaptionPreviews } from './CaptionPreviews';
import { LocalDrafts } from './LocalDrafts';
import { MediaLibrary } from './MediaLibrary';
import { MediaDropzone } from './MediaDropzone';
import { MediaList } from './MediaList';
import { TargetPicker } from './TargetPicker';
import { AddToQueueButton } from '../queue/AddToQueueButton';
import './compose.css';

const WHEN_OPTIONS = [
  { value: 'now', label: 'Publish now' },
  { value: 'schedule', label: 'Schedule' },
  { value: 'draft', label: 'Save draft' },
] as const;

const QUEUED_NOTICE = 'Saved on this computer; it will be sent as soon as the service answers.';

export function ComposeScreen() {
  const { accounts, ensureAccounts, loadAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure, loadAccounts: s.load })),
  );
  const { items, adding, addDropped, pick, listenMedia } = useMediaStore(
    useShallow((s) => ({
      items: s.items,
      adding: s.adding,
      addDropped: s.addDropped,
      pick: s.pick,
      listenMedia: s.listen,
    })),
  );
  const draft = useComposeStore(
    useShallow((s) => ({
      loaded: s.loaded,
      caption: s.caption,
      accountIds: s.accountIds,
      when: s.when,
      localAt: s.localAt,
      save: s.save,
      saveError: s.saveError,
    })),
  );
  const compose = useComposeStore(
    useShallow((s) => ({
      load: s.load,
      setCaption: s.setCaption,
      toggleAccount: s.toggleAccount,
      setWhen: s.setWhen,
      setLocalAt: s.setLocalAt,
      mediaChanged: s.mediaChanged,
      flush: s.flush,
      startNew: s.startNew,
      sent: s.sent,
      loadDrafts: s.loadDrafts,
    })),
  );
  const fileDialog = useAppStore((s) => s.info?.file_dialog ?? false);
  const createPost = usePostsStore((s) => s.create);
  const loadQueued = useOutboxStore((s) => s.load);

  const { caption, when, localAt } = draft;
  const selected = useMemo(() => new Set(draft.accountIds), [draft.accountIds]);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const now = useServiceNow();

  useEffect(() => void ensureAccounts(), [ensureAccounts]);
  useEffect(() => listenMedia(), [listenMedia]);
  useEffect(() => {
    void compose.load();
    void compose.loadDrafts();
    // Whatever is waiting for a pause in typing is kept when the screen or the page goes away.
    const keep = () => void compose.flush();
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [compose]);
  // Media kept with the post are its uploads: keep the post when they change.
  const uploadedKey = items.map((i) => i.uploaded?.asset_id ?? '').join(',');
  useEffect(() => compose.mediaChanged(), [uploadedKey, compose]);

  const accountList = useMemo(() => accounts.data ?? [], [accounts.data]);
  const targets: Target[] = useMemo(
    () =>
      accountList
        .filter((a) => selected.has(a.id) && !PLATFORM_META[a.platform].postsUnavailable)
        .map((a) => ({ social_account_id: a.id, platform: a.platform })),
    [accountList, selected],
  );
  const platforms = useMemo(() => [...new Set(targets.map((t) => t.platform))] as Platform[], [targets]);

  const previewMedia = useMemo(
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

  // Each picked platform's own rules (src-shared/platform-rules.ts): what certainly fails there blocks, the
  // rest warns. The caption's length per platform is said under the caption already.
  const verdicts = useMemo(
    () =>
      checkPost(platforms, {
        caption,
        media: items.map((i) => ({
          kind: i.file.kind === 'other' ? 'unknown' : i.file.kind,
          durationSeconds: i.inspection?.duration_seconds,
          width: i.inspection?.width,
          height: i.inspection?.height,
        })),
      }).filter((v) => v.rule !== 'caption-length'),
    [platforms, caption, items],
  );
  const ruleWarnings = verdicts.filter((v) => v.severity === 'warn').map((v) => v.message);

  const scheduledAt = when === 'schedule' ? fromLocalInput(localAt) : null;
  const blockers: string[] = verdicts.filter((v) => v.severity === 'block').map((v) => v.message);
  if (caption.trim().length === 0 && items.length === 0) blockers.push('Write a caption or add media.');
  if (caption.length > LIMITS.captionLength)
    blockers.push(`The caption is over ${LIMITS.captionLength} characters.`);
  if (targets.length === 0) blockers.push('Pick at least one account.');
  if (targets.length > LIMITS.addTargetsPerUpdate)
    blockers.push(`Pick at most ${LIMITS.addTargetsPerUpdate} accounts.`);
  if (items.length > LIMITS.mediaPerPost) blockers.push(`Attach at most ${LIMITS.mediaPerPost} files.`);
  if (items.some((i) => i.phase === 'rejected' || i.phase === 'failed'))
    blockers.push('Convert, retry or remove the media that was not accepted.');
  if (items.some((i) => i.phase !== 'uploaded' && i.phase !== 'rejected' && i.phase !== 'failed'))
    blockers.push('Waiting for uploads to finish…');
  if (when === 'schedule' && (!scheduledAt || Date.parse(scheduledAt) <= now))
    blockers.push('Pick a time in the future.');

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (blockers.length > 0 || submitting) return;
    setSubmitting(true);
    setError(null);
    const media = items.flatMap((i) => (i.uploaded ? [{ asset_id: i.uploaded.asset_id }] : []));
    const request = {
      caption,
      media,
      targets,
      ...(when === 'draft' ? { action: 'draft' as const } : {}),
      ...(when === 'schedule' && scheduledAt ? { scheduled_at: scheduledAt } : {}),
    };
    const r = await createPost(request);
    setSubmitting(false);
    if (!r.ok && isOutboxQueued(r.error)) {
      // Not a failure: the host holds the post and sends it itself. Creating it again would duplicate it.
      void loadQueued();
      toast('warning', QUEUED_NOTICE);
    } else if (!r.ok) {
      setError(r.error);
      return;
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
    await compose.sent();
    navigate('posts');
  };

  const hasYouTube = accountList.some((a) => PLATFORM_META[a.platform].postsUnavailable);

  return (
    <form className="page" onSubmit={(e) => void onSubmit(e)} aria-label="Compose a post">
      <PageHeader
        title="Compose"
        subtitle="Write once, deliver to every account you pick."
        actions={
          <button type="button" className="btn btn--small" onClick={() => void compose.startNew()}>
            New post
          </button>
        }
      />
      <div className="grid-2">
        <div className="form-stack">
          <section className="card" aria-label="Content">
            <div className="card__body form-stack">
              <CaptionEditor value={caption} onChange={compose.setCaption} platforms={platforms} />
              <CaptionPreviews caption={caption} platforms={platforms} media={previewMedia} />
              <MediaDropzone
                onFiles={(files) => void addDropped(files)}
                onPick={fileDialog ? (folder) => void pick(folder) : undefined}
                busy={adding}
                compact={items.length > 0}
              />
              <MediaList />
              <MediaLibrary />
            </div>
          </section>
          <LocalDrafts />
        </div>

        <div className="form-stack">
          <section className="card" aria-labelledby="compose-targets-title">
            <div className="card__header">
              <h2 id="compose-targets-title">Accounts</h2>
              <span className="muted">{targets.length > 0 ? `${targets.length} selected` : null}</span>
            </div>
            <div className="card__body form-stack">
              <Freshness state={accounts} what="the accounts" onRetry={() => void loadAccounts()} />
              <AccountsGate
                accounts={accounts}
                usable={accountList.length}
                onRetry={() => void loadAccounts()}
              >
                <TargetPicker accounts={accountList} selected={selected} onToggle={compose.toggleAccount} />
              </AccountsGate>
              {hasYouTube ? null : (
                <p className="field__hint compose__yt-note">
                  YouTube is not offered here: the service publishes to YouTube only through automations and
                  direct uploads.
                </p>
              )}
            </div>
          </section>

          <section className="card" aria-labelledby="compose-when-title">
            <div className="card__header">
              <h2 id="compose-when-title">When</h2>
            </div>
            <div className="card__body form-stack">
              <Segmented
                label="When to publish"
                value={when}
                options={WHEN_OPTIONS}
                onChange={compose.setWhen}
              />
              {when === 'schedule' ? (
                <div className="field">
                  <label className="field__label" htmlFor="compose-when-at">
                    Date and time ({localZone()})
                  </label>
                  <input
                    id="compose-when-at"
                    className="input"
                    type="datetime-local"
                    value={localAt}
                    min={toLocalInput(new Date(now))}
                    onChange={(e) => compose.setLocalAt(e.target.value)}
                    aria-describedby="compose-when-utc"
                  />
                  <span className="field__hint" id="compose-when-utc">
                    {scheduledAt
                      ? `Goes out ${formatDateTime(scheduledAt)}, ${localZone()} time (${formatRelative(scheduledAt, now)}).`
                      : 'Pick a date and time.'}
                  </span>
                  {scheduledAt ? (
                    <details className="field__details">
                      <summary>As sent to the service</summary>
                      <code>{scheduledAt.replace('.000Z', 'Z')}</code> (UTC)
                    </details>
                  ) : null}
                </div>
              ) : (
                <p className="muted">
                  {when === 'now'
                    ? 'Goes out to every selected account right away.'
                    : 'Kept as a draft: nothing is published until you schedule it.'}
                </p>
              )}
            </div>
          </section>

          <section className="card compose__submit-bar" aria-label="Send">
            <div className="card__body form-stack">
              {error ? <ErrorAlert error={error} title="The post was not created" /> : null}
              {ruleWarnings.length > 0 ? (
                <ul className="compose__warnings" aria-label="Platform warnings">
                  {ruleWarnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              ) : null}
              {blockers.length > 0 ? (
                <ul className="compose__blockers" aria-label="Before you can submit">
                  {blockers.map((b) => (
                    <li key={b}>{b}</li>
                  ))}
                </ul>
              ) : null}
              <button
                type="submit"
                className="btn btn--primary compose__submit"
                disabled={blockers.length > 0 || submitting}
                title={error ? describeError(error) : undefined}
              >
                {submitting ? 'Sending…' : WHEN_OPTIONS.find((o) => o.value === when)?.label}
              </button>
              <AddToQueueButton
                request={{
                  caption,
                  targets,
                  media: items.flatMap((i) => (i.uploaded ? [{ asset_id: i.uploaded.asset_id }] : [])),
                }}
                disabled={blockers.length > 0 || submitting}
                onQueued={() => void compose.sent()}
              />
              <SaveNote state={draft.save} error={draft.saveError} />
            </div>
          </section>
        </div>
      </div>
    </form>
  );
}

/** Where the post being written stands on this computer: kept, being kept, or not kept (and why). */
function SaveNote({
  state,
  error,
}: {
  readonly state: 'idle' | 'saving' | 'saved' | 'failed';
  readonly error: Readonly<BridgeError> | null;
}) {
  if (state === 'failed' && error) {
    return <ErrorAlert error={error} title="This post is not kept on this computer" />;
  }
  return (
    <p className="compose__saved" role="status">
      {state === 'saving'
        ? 'Keeping a copy on this computer…'
        : state === 'saved'
          ? 'Kept on this computer'
          : ''}
    </p>
  );
}
