import { canDo, whyNot, type DeliveryAction } from '../../../../src-shared/api/delivery-transitions';
import type { Delivery } from '../../../../src-shared/api/posts';
import { PLATFORM_META } from '../../app/platforms';

/**
 * Which actions a screen offers for one delivery or a whole post, and why one is missing: every screen that
 * shows actions (Posts rows, the post dialog, the bar over selected posts, Calendar) asks here, and here only
 * asks the transition table (src-shared/api/delivery-transitions.ts). Nothing is offered that the service
 * would refuse.
 */
type Known = Pick<Delivery, 'status' | 'platform'>;

/** Whether this one delivery allows the action. */
export const offersOn = (d: Known, action: DeliveryAction): boolean => canDo(d.status, action);

/** Why this delivery does not allow the action, in a person's words; null when it does. */
export const whyNotOn = (d: Known, action: DeliveryAction): string | null =>
  whyNot(d.status, action, PLATFORM_META[d.platform].label);

/**
 * The deliveries of a post an action reaches. A whole-post action (edit, cancel, publish now) changes every
 * delivery that allows it and leaves the others; a one-delivery action reaches only the ones that allow it.
 */
export function reachOf<D extends Known>(deliveries: readonly D[], action: DeliveryAction): D[] {
  return deliveries.filter((d) => canDo(d.status, action));
}

/** Whether the post offers the action: some delivery of it allows it. */
export const offersOnPost = (deliveries: readonly Known[], action: DeliveryAction): boolean =>
  deliveries.some((d) => canDo(d.status, action));

/** Why the post offers no such action (its first delivery's reason); null when it does. */
export function whyNotOnPost(deliveries: readonly Known[], action: DeliveryAction): string | null {
  if (offersOnPost(deliveries, action)) return null;
  const first = deliveries[0];
  return first ? whyNotOn(first, action) : 'This post has no deliveries left.';
}
