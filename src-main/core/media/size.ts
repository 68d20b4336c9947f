/** Byte sizes as people write them: `64MiB` / `64M` / `67108864` in; out through src-shared's `formatBytes`. */
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
