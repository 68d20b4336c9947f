import type { Automation } from '../../../src-shared/api/automations';
import { nextOccurrence } from '../executor/occurrences';

/** One time an automation of this computer falls due. */
export interface Occurrence {
  readonly automationId: string;
  readonly automationName: string;
  readonly at: Date;
}

/** The automations this computer runs itself: active, on the local queue. */
const runsHere = (a: Pick<Automation, 'status' | 'queue'>): boolean =>
  a.status === 'active' && a.queue === 'local';

/**
 * The next `limit` occurrences across these automations after `from` (and no later than `until`), soonest first.
 * A schedule that does not parse has none: it never runs, so it is never due.
 */
export function upcomingOccurrences(
  automations: readonly Pick<Automation, 'id' | 'name' | 'status' | 'queue' | 'schedule'>[],
  from: Date,
  o: { readonly limit: number; readonly until?: Date },
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const a of automations.filter(runsHere)) {
    let cursor: Date | null = from;
    for (let i = 0; i < o.limit; i += 1) {
      try {
        cursor = nextOccurrence(a.schedule, cursor);
      } catch {
        cursor = null;
      }
      if (!cursor || (o.until && cursor.getTime() > o.until.getTime())) break;
      out.push({ automationId: a.id, automationName: a.name, at: cursor });
    }
  }
  return out.sort((x, y) => x.at.getTime() - y.at.getTime()).slice(0, o.limit);
}
