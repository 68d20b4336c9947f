import { useMemo, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Platform } from '../../../../src-shared/api/common';
import { AccountsGate } from '../../components/AccountsGate';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useComposeStore } from '../../stores/use-compose-store';
import { AccountAvatars } from './AccountAvatars';
import { CaptionEditor } from './CaptionEditor';
import { CaptionPreviews, type PreviewAuthor } from './CaptionPreviews';
import { ComposeChecks } from './ComposeChecks';
import { ComposeFooter } from './ComposeFooter';
import { ComposeMedia } from './ComposeMedia';
import { LocalDrafts } from './LocalDrafts';
import { useComposeLifecycle } from './use-compose-lifecycle';
import { useComposePost } from './use-compose-post';
import './compose.css';

/**
 * One focused composer: the accounts as avatars along the top, the caption and media beside each platform's
 * preview, and one footer with When and Send. The content scrolls above the footer, never under it, so nothing
 * focused can be hidden by it. Ctrl/Cmd+Enter sends, through the same checks as Send.
 */
export function ComposeScreen() {
  const loadAccounts = useAccountsStore((s) => s.load);
  const compose = useComposeStore(
    useShallow((s) => ({ setCaption: s.setCaption, toggleAccount: s.toggleAccount, startNew: s.startNew })),
  );
  useComposeLifecycle();
  const post = useComposePost();
  const blockersList = useRef<HTMLUListElement>(null);

  // Each platform's preview speaks as the first account picked there.
  const authors = useMemo(() => {
    const m = new Map<Platform, PreviewAuthor>();
    for (const a of post.chosen) if (!m.has(a.platform)) m.set(a.platform, { id: a.id, name: a.name });
    return m;
  }, [post.chosen]);

  const submit = async () => {
    const went = await post.send();
    // Held back: focus goes to what holds it, so the keyboard shortcut is never silently ignored.
    if (!went && post.checks.blockers.length > 0) blockersList.current?.focus();
  };
  // The browser scrolls only a text field's caret into view: the whole focused control (and its ring) is brought
  // inside the scrolling area, so none of it stays clipped at the footer's edge.
  const keepInView = (e: FocusEvent<HTMLDivElement>) => {
    const area = e.currentTarget.getBoundingClientRect();
    const r = e.target.getBoundingClientRect();
    if (r.top < area.top || r.bottom > area.bottom) e.target.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    void submit();
  };

  return (
    <form
      className="compose"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={onKeyDown}
      aria-label="Compose a post"
    >
      <div className="compose__scroll" onFocus={keepInView}>
        <div className="page compose__page">
          <PageHeader
            title="Compose"
            subtitle="Write once, deliver to every account you pick."
            actions={
              <button type="button" className="btn btn--small" onClick={() => void compose.startNew()}>
                New post
              </button>
            }
          />
          <section className="compose__accounts" aria-label="Accounts">
            <Freshness state={post.accounts} what="the accounts" onRetry={loadAccounts} />
            <AccountsGate
              accounts={post.accounts}
              usable={post.accountList.length}
              onRetry={() => void loadAccounts()}
            >
              <AccountAvatars
                accounts={post.accountList}
                selected={post.selected}
                onToggle={compose.toggleAccount}
              />
            </AccountsGate>
          </section>
          <div className="compose__columns">
            <section className="compose__write" aria-label="Content">
              <CaptionEditor value={post.caption} onChange={compose.setCaption} platforms={post.platforms} />
              <ComposeMedia />
              <ComposeChecks checks={post.checks} error={post.error} listRef={blockersList} />
            </section>
            <div className="compose__previews">
              {post.platforms.length > 0 ? (
                <CaptionPreviews
                  caption={post.caption}
                  platforms={post.platforms}
                  media={post.previewMedia}
                  authors={authors}
                />
              ) : (
                <p className="compose__previews-empty muted">
                  Pick an account above to see the post as each platform shows it.
                </p>
              )}
            </div>
          </div>
          <LocalDrafts />
        </div>
      </div>
      <ComposeFooter post={post} />
    </form>
  );
}
