/**
 * The named fields of a store's state, for `useStore(useShallow((s) => pick(s, 'load', 'busy')))`: a screen
 * reads several fields and re-renders only when one of them changes. Renamed fields stay written out.
 */
export function pick<S extends object, K extends keyof S>(state: S, ...keys: readonly K[]): Pick<S, K> {
  const out = {} as Pick<S, K>;
  for (const k of keys) out[k] = state[k];
  return out;
}
