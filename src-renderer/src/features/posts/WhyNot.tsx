import type { DeliveryAction } from '../../../../src-shared/api/delivery-transitions';
import type { Delivery } from '../../../../src-shared/api/posts';
import { whyNotOn } from './delivery-actions';

/** Where an action's button would be: why this delivery does not allow it, as a note (not an error). */
export function WhyNot({
  delivery,
  action,
  className,
}: {
  readonly delivery: Pick<Delivery, 'status' | 'platform'>;
  readonly action: DeliveryAction;
  readonly className?: string;
}) {
  return (
    <span className={className ? `${className} muted` : 'muted'} role="note">
      {whyNotOn(delivery, action)}
    </span>
  );
}
