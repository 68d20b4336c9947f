import { z } from 'zod';
import { DateTime, Platform } from '../api/common';
import { NoInput } from './common';
import { event, invoke } from './define';

/**
 * A scheduled delivery whose time passed, and the grace after it (setting `deliveryConfirmMinutes`), without the
 * service saying `posted`: Postdesk cannot confirm it went out.
 */
export const DeliveryUnconfirmed = z.object({
  id: z.string(),
  post_id: z.string(),
  platform: Platform,
  scheduled_at: DateTime,
  /** When the watch found it. */
  found_at: DateTime,
  /** The deep link that opens this delivery: `postdesk://post/<id>`. */
  link: z.string(),
});
export type DeliveryUnconfirmed = z.infer<typeof DeliveryUnconfirmed>;

export const UnconfirmedList = z.object({ deliveries: z.array(DeliveryUnconfirmed) });
export type UnconfirmedList = z.infer<typeof UnconfirmedList>;

/** The delivery watch: what went past its time without being confirmed. */
export const watch = {
  /** Checks now (when connected), then lists what is not confirmed. */
  unconfirmed: invoke(NoInput, UnconfirmedList),
  /** One delivery newly found not confirmed. */
  didNotConfirm: event(DeliveryUnconfirmed),
} as const;
