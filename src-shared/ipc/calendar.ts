import { z } from 'zod';
import { DateTime, Platform } from '../api/common';
import { DeliveryStatus, Delivery, UpdatePostResponse } from '../api/posts';
import { invoke } from './define';
import { ListFreshness } from './posts';

/** A delivery's place on the calendar: its scheduled time, else when it was published. */
export const calendarTimeOf = (d: Readonly<Delivery>): string | null =>
  d.scheduled_at ?? d.published_at ?? null;

export const CalendarRangeInput = z
  .object({
    start: DateTime,
    end: DateTime,
    platform: Platform.optional(),
    /** Default: scheduled, retry_scheduled and posted. */
    statuses: z.array(DeliveryStatus).min(1).optional(),
  })
  .refine((r) => Date.parse(r.start) < Date.parse(r.end), {
    message: 'start must be before end',
    path: ['end'],
  });
export type CalendarRangeInput = z.input<typeof CalendarRangeInput>;

export const RescheduleInput = z.object({ id: z.string().min(1), scheduled_at: DateTime });
export type RescheduleInput = z.infer<typeof RescheduleInput>;

export const calendar = {
  /** Deliveries whose `scheduled_at` (or `published_at`) falls in [start, end). */
  range: invoke(
    CalendarRangeInput,
    z.object({ deliveries: z.array(Delivery), freshness: ListFreshness.optional() }),
  ),
  /** Drag to reschedule: moves every still-scheduled delivery of the parent post (the service's rule). */
  reschedule: invoke(RescheduleInput, UpdatePostResponse),
} as const;
