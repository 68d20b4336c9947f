import { TZDate } from '@date-fns/tz';
import { createPlugin } from '@fullcalendar/core';
import { NamedTimeZoneImpl } from '@fullcalendar/core/internal';

/**
 * FullCalendar shows a named zone (the Preferences' time zone) only through a plugin; this one reads the
 * zone's offsets with @date-fns/tz, already used for the queue's slots, rather than adding Luxon or Moment.
 */
class DateFnsZone extends NamedTimeZoneImpl {
  /** The zone's offset, in minutes east of UTC, at these wall-clock fields. */
  offsetForArray(a: number[]): number {
    const [y = 1970, mo = 0, d = 1, h = 0, mi = 0, s = 0, ms = 0] = a;
    return -new TZDate(y, mo, d, h, mi, s, ms, this.timeZoneName).getTimezoneOffset();
  }

  /** The wall-clock fields of this instant in the zone. */
  timestampToArray(ms: number): number[] {
    const t = new TZDate(ms, this.timeZoneName);
    return [
      t.getFullYear(),
      t.getMonth(),
      t.getDate(),
      t.getHours(),
      t.getMinutes(),
      t.getSeconds(),
      t.getMilliseconds(),
    ];
  }
}

export const namedZones = createPlugin({ name: 'postdesk-named-zones', namedTimeZonedImpl: DateFnsZone });
