import type { Metrics } from '../../../../src-shared/api/analytics';

type Day = Readonly<{ date: string } & Metrics>;

const ZERO = { impressions: 0, likes: 0, comments: 0, shares: 0 } as const;

const dayKey = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const parseDay = (s: string): Date | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
};

/**
 * Every day of the range, a day with no figures as zeros. The service lists only days that had figures, and a
 * chart drawn from that list joins Monday to Thursday as if Tuesday and Wednesday had happened in between.
 * The range is the filter's when it has one (local days, `end` exclusive), else the first to the last listed day.
 * Capped at `maxDays`, so "All time" over years does not draw thousands of points.
 */
export function fillDays(
  days: readonly Day[],
  range: { readonly start: string | null; readonly end: string | null },
  maxDays = 400,
): Day[] {
  const listed = new Map(days.map((d) => [d.date, d]));
  const sorted = [...days].map((d) => d.date).sort();
  const from = range.start ? new Date(range.start) : parseDay(sorted[0] ?? '');
  const to = range.end ? new Date(Date.parse(range.end) - 1) : parseDay(sorted.at(-1) ?? '');
  if (!from || !to || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to)
    return [...days];
  const out: Day[] = [];
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  const last = dayKey(to);
  while (out.length < maxDays) {
    const key = dayKey(d);
    out.push(listed.get(key) ?? { date: key, ...ZERO });
    if (key >= last) break;
    d.setDate(d.getDate() + 1);
  }
  return out;
}

/**
 * Round axis ticks from zero: 0, 1K, 2K, 3K rather than the 950 / 1.9K / 2.9K a chart library picks when it
 * divides the largest value into equal parts. Steps are 1, 2, 2.5 or 5 times a power of ten.
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  // Counts are whole: a step below one would label the same count twice.
  const integerStep = Math.max(1, step);
  const ticks: number[] = [];
  for (let t = 0; ticks.length === 0 || ticks.at(-1)! < max; t += integerStep) ticks.push(t);
  return ticks;
}

/** Likes, comments and shares per impression, as a fraction; null with no impressions to divide by. */
export function engagementRate(m: Metrics): number | null {
  return m.impressions > 0 ? (m.likes + m.comments + m.shares) / m.impressions : null;
}

/** The change from the previous period as a fraction (0.12 = 12 % up); null when there is nothing to compare. */
export function changeFrom(current: number, previous: number | null | undefined): number | null {
  if (previous === null || previous === undefined || previous === 0) return null;
  return (current - previous) / previous;
}
