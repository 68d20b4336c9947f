import { useShallow } from 'zustand/react/shallow';
import { hrefOf } from '../app/router';
import { formatTime } from '../app/format';
import { platformLabel } from '../app/platforms';
import { hashParamsOf, useDeepLinksStore } from '../stores/use-deep-links-store';
import { useDeliveryFailuresStore } from '../stores/use-delivery-failures-store';
import { IconAlert, IconX } from './icons';

/**
 * Deliveries the host reports as failed (`posts.onDidFailDelivery`). They stay until dismissed, unlike
 * toasts: a failure is something to act on. The region is a polite live region, so a screen reader
 * announces each one without interrupting.
 */
export function FailureNotices() {
  const { failures, dismiss } = useDeliveryFailuresStore(
    useShallow((s) => ({ failures: s.failures, dismiss: s.dismiss })),
  );
  return (
    <section className="failure-notices" role="status" aria-live="polite" aria-label="Failed deliveries">
      {failures.map((f) => {
        const route = { kind: 'post', id: f.id } as const;
        const { screen, params } = hashParamsOf(route);
        return (
          <div key={f.id} className="toast toast--error failure-notice">
            <IconAlert size={16} />
            <div className="toast__message">
              <p className="alert__title">Delivery to {platformLabel(f.platform)} failed</p>
              <p className="failure-notice__reason">
                {f.error ?? 'The service gave no reason.'}{' '}
                <span className="faint">({formatTime(f.failed_at)})</span>
              </p>
              <a
                href={hrefOf(screen, params)}
                onClick={(e) => {
                  e.preventDefault();
                  useDeepLinksStore.getState().open(route);
                }}
              >
                Open the post
              </a>
            </div>
            <button
              type="button"
              className="btn btn--ghost btn--icon btn--small"
              aria-label={`Dismiss the ${platformLabel(f.platform)} failure`}
              onClick={() => dismiss(f.id)}
            >
              <IconX size={14} />
            </button>
          </div>
        );
      })}
    </section>
  );
}
