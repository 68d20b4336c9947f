import { useEffect } from 'react';
import { STILL_SCHEDULED_STATUSES } from '../../../src-shared/api/delivery-transitions';
import type { DeliveryStatus } from '../../../src-shared/api/posts';
import { useUnconfirmedStore } from '../stores/use-unconfirmed-store';

/** Asks the host which deliveries are not confirmed, and hears of new ones, while the screen is open. */
export function useUnconfirmedWatch(): void {
  const load = useUnconfirmedStore((s) => s.load);
  const listen = useUnconfirmedStore((s) => s.listen);
  useEffect(() => {
    void load();
    return listen();
  }, [load, listen]);
}

/**
 * "Not confirmed": the post's time passed (and the grace) while the service still had it waiting to go out.
 * Shown only while the service still holds it waiting to go out (the table's still-scheduled statuses).
 */
export function NotConfirmedBadge({ id, status }: { readonly id: string; readonly status: DeliveryStatus }) {
  const flagged = useUnconfirmedStore((s) => s.ids.has(id));
  if (!flagged || !STILL_SCHEDULED_STATUSES.includes(status)) return null;
  return (
    <span
      className="badge badge--warning"
      title="Its time has passed and the service has not said it was posted."
    >
      not confirmed
    </span>
  );
}
