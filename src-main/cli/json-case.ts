/**
 * The CLI's JSON uses the service's casing, snake_case, throughout: core reports (bulk, the executor, media probes)
 * are camelCase objects, so their keys are converted on the way out. Only keys change; values (ids, paths,
 * messages) never do.
 */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
      snakeCaseKeys(v),
    ]),
  );
}
