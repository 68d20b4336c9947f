// Building a formatter costs far more than using one: an export of thousands of rows reuses one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * `YYYY-MM-DD HH:mm:ss` in `zone`: the local form bulk import reads back (with a `timezone` column), so a time
 * copied from an export's local column into `scheduled_at` means the same instant.
 */
export function localTime(iso: string | null | undefined, zone: string): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const parts = formatterOf(zone).formatToParts(new Date(at));
  const p = (type: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === type)?.value ?? '00';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
}

/** An instant as the export writes UTC: ISO 8601 with `Z`, whatever precision the service used. */
export function utcTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toISOString();
}

/**
 * A time as a JSON export's record holds it: `name` in UTC and `name_local` in `zone`, each null where there is
 * none (a run that never started, a post not yet published).
 */
export function bothTimes<N extends string>(
  name: N,
  iso: string | null | undefined,
  zone: string,
): Record<N | `${N}_local`, string | null> {
  return { [name]: utcTime(iso) || null, [`${name}_local`]: localTime(iso, zone) || null } as Record<
    N | `${N}_local`,
    string | null
  >;
}
