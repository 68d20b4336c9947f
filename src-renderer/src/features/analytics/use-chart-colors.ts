import { useSyncExternalStore } from 'react';

/**
 * SVG presentation attributes cannot use CSS variables, so read the theme's chart colours once per
 * theme and re-read them when the OS switches between light and dark.
 */
const query = () => window.matchMedia('(prefers-color-scheme: dark)');
const subscribe = (cb: () => void) => {
  const mq = query();
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
};
const snapshot = () => (query().matches ? 'dark' : 'light');

const read = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export interface ChartColors {
  readonly series: readonly string[];
  readonly grid: string;
  readonly axis: string;
  readonly tooltipBg: string;
  readonly text: string;
}

const cache = new Map<string, ChartColors>();

export function useChartColors(): ChartColors {
  const theme = useSyncExternalStore(subscribe, snapshot);
  let colors = cache.get(theme);
  if (!colors) {
    colors = {
      series: ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5'].map(read),
      grid: read('--border'),
      axis: read('--text-faint'),
      tooltipBg: read('--bg-elevated'),
      text: read('--text'),
    };
    cache.set(theme, colors);
  }
  return colors;
}
