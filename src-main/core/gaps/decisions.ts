import type { Occurrence } from './upcoming';

/** Quitting asks first when an automation of this computer is due within this long. */
export const QUIT_HORIZON_MS = 24 * 3600_000;
/** Going to sleep warns when one is due within this long. */
export const SLEEP_HORIZON_MS = 3600_000;

/** "in 3 h 20 min", "in 45 min", "in less than a minute". */
export function inWords(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return 'in less than a minute';
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h === 0) return `in ${m} min`;
  return m === 0 ? `in ${h} h` : `in ${h} h ${m} min`;
}

const clock = (d: Date): string => d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const dueWithin = (occurrences: readonly Occurrence[], now: Date, horizonMs: number): Occurrence[] =>
  occurrences
    .filter((o) => o.at.getTime() > now.getTime() && o.at.getTime() - now.getTime() <= horizonMs)
    .sort((a, b) => a.at.getTime() - b.at.getTime());

export interface QuitQuestion {
  readonly next: Occurrence;
  /** How many occurrences fall due within the horizon. */
  readonly due: number;
  readonly message: string;
  readonly detail: string;
}

/** Whether quitting now should be asked about first, and in which words: null to quit without asking. */
export function quitQuestion(occurrences: readonly Occurrence[], now: Date): QuitQuestion | null {
  const due = dueWithin(occurrences, now, QUIT_HORIZON_MS);
  const next = due[0];
  if (!next) return null;
  const more = due.length > 1 ? ` ${due.length - 1} more fall due in the next 24 hours.` : '';
  return {
    next,
    due: due.length,
    message: 'Quit Postdesk while automations are due?',
    detail:
      `“${next.automationName}” is due ${inWords(next.at.getTime() - now.getTime())} (${clock(next.at)}).${more} ` +
      'Automations on this computer run only while Postdesk is running.',
  };
}

export interface SleepNotice {
  readonly next: Occurrence;
  readonly title: string;
  readonly body: string;
}

/** What to say as the computer goes to sleep with an automation due within the hour; null to say nothing. */
export function sleepNotice(occurrences: readonly Occurrence[], now: Date): SleepNotice | null {
  const next = dueWithin(occurrences, now, SLEEP_HORIZON_MS)[0];
  if (!next) return null;
  return {
    next,
    title: `Due ${inWords(next.at.getTime() - now.getTime())}: ${next.automationName}`,
    body: 'The computer is going to sleep. The run happens only while it is awake and Postdesk is running.',
  };
}
