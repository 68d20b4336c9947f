const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * Byte sizes as people read them (`230.5 MiB`), the same in the UI and the CLI. Whole numbers only when exact, so a
 * file one byte over `200 MiB` never reads as `200 MiB` itself.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const exact = n % 1024 ** unit === 0;
  return `${exact ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}
