import { z } from 'zod';
import { AnalyticsQuery } from '../api/analytics';
import { DateTime, Platform } from '../api/common';
import { DeliveryStatus } from '../api/posts';
import { event, invoke } from './define';
import { LocalId } from './common';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** What to export: each screen's own data under the filters it shows. */
export const ExportWhat = z.discriminatedUnion('kind', [
  /** Posts with their deliveries (Posts screen): the list's filters. */
  z.object({ kind: z.literal('posts'), status: DeliveryStatus.optional(), platform: Platform.optional() }),
  /** The calendar's range on screen: deliveries scheduled (or published) in [start, end), as posts. */
  z.object({
    kind: z.literal('calendar'),
    start: DateTime,
    end: DateTime,
    platform: Platform.optional(),
    statuses: z.array(DeliveryStatus).min(1).optional(),
  }),
  z.object({ kind: z.literal('analytics'), query: AnalyticsQuery.omit({ post_id: true }) }),
  /** Run history on this computer (Automations screen). */
  z.object({ kind: z.literal('runs'), automation_id: z.string().min(1).optional() }),
]);
export type ExportWhat = z.infer<typeof ExportWhat>;

export const ExportRequest = z.object({
  what: ExportWhat,
  format: ExportFormat,
  /** The page's own id for this export, so its progress events can be told apart. */
  export_id: LocalId,
  /** Zone of the local-time columns: the page's (what the screens show); default the host's. */
  timezone: z.string().min(1).max(100).optional(),
});
export type ExportRequest = z.infer<typeof ExportRequest>;

export const ExportResult = z.discriminatedUnion('outcome', [
  /** Written where the user chose in main's save dialog; `name` is the file's name only. */
  z.object({ outcome: z.literal('saved'), name: z.string(), records: z.number().int().nonnegative() }),
  /** The user closed the dialog: nothing was written. */
  z.object({ outcome: z.literal('cancelled') }),
  /**
   * `postdesk web`: the file is ready for the browser to download, once, from `url` (this host's own address);
   * the page hands it to the browser, whose own dialog or downloads folder decides where it goes.
   */
  z.object({
    outcome: z.literal('download'),
    name: z.string(),
    url: z.string().startsWith('/'),
    records: z.number().int().nonnegative(),
  }),
]);
export type ExportResult = z.infer<typeof ExportResult>;

export const ExportProgress = z.object({ export_id: LocalId, records: z.number().int().nonnegative() });
export type ExportProgress = z.infer<typeof ExportProgress>;

export const exportChannels = {
  /** Writes the export: through main's save dialog (desktop), or as a one-time download (`postdesk web`). */
  run: invoke(ExportRequest, ExportResult),
  /** Records written so far, a few times a second while a large export runs. */
  didProgress: event(ExportProgress),
} as const;
