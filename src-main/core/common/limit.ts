import pLimit from 'p-limit';

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

/** At most `concurrency` of the calls passed through it run at once; the rest wait in order. */
export function createLimit(concurrency: number): Limit {
  const limit = pLimit(Math.max(1, Math.floor(concurrency)));
  return (fn) => limit(fn);
}
