import { useShallow } from 'zustand/react/shallow';
import { formatDateTime, formatRelative, plural } from '../app/format';
import { useNow } from '../app/use-now';
import { useOutboxStore } from '../stores/use-outbox-store';
import { IconClock } from './icons';

/** Posts this window queued that the service has not confirmed yet (`OUTBOX_QUEUED`): shown as pending. */
export function QueuedPosts() {
  const { queued } = useOutboxStore(useShallow((s) => ({ queued: s.queued })));
  const now = useNow(15_000);
  if (queued.length === 0) return null;
  return (
    <section className="alert alert--warning queued-posts" aria-labelledby="queued-posts-title">
      <IconClock size={16} />
      <div className="queued-posts__body">
        <p className="alert__title" id="queued-posts-title">
          {plural(queued.length, 'post')} waiting to be sent
        </p>
        <p>Saved on this computer; each is sent as soon as the service answers. Nothing to do.</p>
        <ul className="queued-posts__list" aria-label="Posts waiting to be sent">
          {queued.map((q) => (
            <li key={q.key}>
              <span className="queued-posts__caption">{q.caption || '(no caption)'}</span>
              <span className="faint">
                {' '}
                · {plural(q.accountIds.length, 'account')}
                {q.scheduledAt ? ` · for ${formatDateTime(q.scheduledAt)}` : ''} · saved{' '}
                {formatRelative(new Date(q.queuedAt).toISOString(), Math.max(now, q.queuedAt))}
              </span>
              <span className="badge badge--warning">pending</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
