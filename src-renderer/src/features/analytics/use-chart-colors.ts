import { usePreferencesStore } from '../../app/preferences';

/**
 * SVG presentation attributes cannot use CSS variables, so read the theme's chart colours once per
 * theme and re-read them when the theme on screen changes (the preference, or the OS's with `system`).
 */

/**
 * A token's colour as the theme on screen shows it. tokens.css writes a themed colour as `light-dark(…)`, which
 * the custom property keeps as written and a colour property resolves, so it is read through one.
 */
function read(name: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  document.documentElement.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

export interface ChartColors {
  readonly series: readonly string[];
  readonly grid: string;
  readonly axis: string;
  readonly tooltipBg: string;
  readonly text: string;
}

const cache = new Map<string, ChartColors>();

export function useChartColors(): ChartColors {
  const theme = usePreferencesStore((s) => s.shownTheme);
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
