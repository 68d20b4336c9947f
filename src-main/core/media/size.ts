/** Byte sizes as people read and write them: `230.5 MiB` out, `64MiB` / `64M` / `67108864` in. */
const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Whole numbers only when exact, so a file one byte over `200 MiB` never reads as `200 MiB` itself.
  const exact = n % 1024 ** unit === 0;
  return `${exact ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}

const MULTIPLIERS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** Parses `64MiB`, `64M` (binary, as ffmpeg and curl read it), `64MB` (decimal) or a plain byte count. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const mult = m ? MULTIPLIERS[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || mult === undefined) {
    throw new RangeError(`"${text}" is not a size; write e.g. 64MiB, 500K or 67108864`);
  }
  const bytes = Math.floor(Number(m[1]) * mult);
  if (!Number.isFinite(bytes) || bytes < 1) throw new RangeError(`"${text}" is not a positive size`);
  return bytes;
}
