import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { QueuedPost } from '../../../src-shared/ipc/posts';
import { plainName } from '../app/bidi';
import { formatDateTime, formatRelative, plural } from '../app/format';
import { platformLabel } from '../app/platforms';
import { useNow } from '../app/use-now';
import { useOutboxStore } from '../stores/use-outbox-store';
import { IconAlert, IconClock } from './icons';
import { ActionButton } from './ActionButton';

function where(q: Readonly<QueuedPost>): string {
  const platforms = [...new Set(q.targets.map((t) => platformLabel(t.platform)))].join(', ');
  return `${platforms} · ${plural(q.targets.length, 'account')}`;
}

const captionOf = (q: Readonly<QueuedPost>): string => (q.caption ? plainName(q.caption) : '(no caption)');

/**
 * Posts the host saved on this computer that the service has not confirmed. Most wait for the service and need
 * nothing. A publish whose answer was lost and that the posts list can neither show nor rule out waits for the
 * person instead: sending it again could publish it twice, so Postdesk asks.
 */
export function QueuedPosts() {
  const { queued, deciding, decisionError, decide } = useOutboxStore(
    useShallow((s) => ({
      queued: s.queued,
      deciding: s.deciding,
      decisionError: s.decisionError,
      decide: s.decide,
    })),
  );
  const now = useNow(15_000);
  const waiting = queued.filter((q) => q.state === 'waiting');
  const undecided = queued.filter((q) => q.state === 'needs_decision');
  // Dismissed, the notice stays away until another post starts waiting.
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const unseen = waiting.filter((q) => !dismissed.has(q.entry_id));
  if (queued.length === 0) return null;
  return (
    <>
      {undecided.length > 0 ? (
        <section
          className="alert alert--error queued-posts queued-posts--decide"
          aria-labelledby="undecided-posts-title"
        >
          <IconAlert size={16} />
          <div className="queued-posts__body">
            <p className="alert__title" id="undecided-posts-title">
              {plural(undecided.length, 'post')} {undecided.length === 1 ? 'needs' : 'need'} your decision
            </p>
            <p>
              The service received {undecided.length === 1 ? 'this post' : 'these posts'} to publish now, but
              its answer was lost, and its list of posts cannot show whether{' '}
              {undecided.length === 1 ? 'it' : 'they'} went out. Postdesk will not send{' '}
              {undecided.length === 1 ? 'it' : 'them'} again on its own, so nothing is published twice. Look
              at the account, then choose.
            </p>
            {decisionError ? (
              <p className="queued-posts__error" role="alert">
                {decisionError}
              </p>
            ) : null}
            <ul className="queued-posts__list" aria-label="Posts that need your decision">
              {undecided.map((q) => (
                <li key={q.entry_id} className="queued-posts__decision">
                  <span className="queued-posts__caption">{captionOf(q)}</span>
                  <span className="faint">
                    {' '}
                    · {where(q)} · saved {formatRelative(q.queued_at, Math.max(now, Date.parse(q.queued_at)))}
                  </span>
                  <span className="btn-row">
                    <ActionButton
                      busy={deciding !== null}
                      label={`It was published: forget “${captionOf(q)}”`}
                      onRun={() => void decide(q.entry_id, 'drop')}
                    >
                      It was published
                    </ActionButton>
                    <ActionButton
                      variant="primary"
                      busy={deciding !== null}
                      label={`It was not published: send “${captionOf(q)}” again`}
                      onRun={() => void decide(q.entry_id, 'send_again')}
                    >
                      Send it again
                    </ActionButton>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
      {unseen.length > 0 ? (
        <section className="alert alert--warning queued-posts" aria-labelledby="queued-posts-title">
          <IconClock size={16} />
          <div className="queued-posts__body">
            <p className="alert__title" id="queued-posts-title">
              {plural(waiting.length, 'post')} waiting to be sent
            </p>
            <details className="queued-posts__details">
              <summary>
                Saved on this computer; each is sent as soon as the service answers. Nothing to do.
              </summary>
              <ul className="queued-posts__list" aria-label="Posts waiting to be sent">
                {waiting.map((q) => (
                  <li key={q.entry_id}>
                    <span className="queued-posts__caption">{captionOf(q)}</span>
                    <span className="faint">
                      {' '}
                      · {plural(q.targets.length, 'account')}
                      {q.scheduled_at ? ` · for ${formatDateTime(q.scheduled_at)}` : ''} · saved{' '}
                      {formatRelative(q.queued_at, Math.max(now, Date.parse(q.queued_at)))}
                    </span>
                    <span className="badge badge--warning">pending</span>
                  </li>
                ))}
              </ul>
            </details>
          </div>
          <ActionButton
            variant="ghost"
            label="Dismiss: posts waiting to be sent"
            onRun={() => setDismissed(new Set(waiting.map((q) => q.entry_id)))}
          >
            Dismiss
          </ActionButton>
        </section>
      ) : null}
    </>
  );
}
