/** `YYYY-MM-DD`, `days` after today (UTC day arithmetic: no dependence on this process's zone). */
export function dayAfter(days: number, from = new Date().toISOString().slice(0, 10)): string {
  return new Date(Date.parse(`${from}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
