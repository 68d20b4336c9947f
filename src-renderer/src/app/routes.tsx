import { lazy, type ComponentType } from 'react';
import type { ReactElement } from 'react';
import {
  IconBolt,
  IconBook,
  IconCalendar,
  IconChart,
  IconClock,
  IconCompose,
  IconDoc,
  IconHome,
  IconInbox,
  IconLayers,
  IconList,
  IconSettings,
  IconSpark,
  IconUsers,
} from '../components/icons';

export interface RouteDef {
  readonly screen: string;
  readonly label: string;
  readonly group: 'Publish' | 'Insights' | 'Automate' | 'App';
  /** The second key of the `g <key>` chord that opens it. */
  readonly key: string;
  readonly icon: ReactElement;
  readonly component: ComponentType;
}

/**
 * Screens load on first visit, so the heavy ones (calendar, charts, markdown) cost nothing up front. Once a screen's
 * module is in, it renders at once: through `lazy` it would suspend on every visit, and React holds back the content
 * of a Suspense boundary that showed its fallback for at least 300 ms (its fallback throttle), which was most of the
 * ~360 ms that opening Posts took.
 */
const loaders: (() => Promise<unknown>)[] = [];
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType => {
  let loaded: ComponentType | null = null;
  const get = async () => (loaded = (await load())[name]);
  loaders.push(get);
  const Lazy = lazy(async () => ({ default: await get() }));
  return function Screen() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  };
};

/**
 * Fetches every screen's chunk once the app is idle, so a first visit does not wait for its download, parse and
 * the Suspense throttle. A chunk that fails to load is fetched again on the visit itself.
 */
export function prefetchScreens(): void {
  for (const load of loaders) void load().catch(() => undefined);
}

export const ROUTES: readonly RouteDef[] = [
  {
    screen: 'home',
    label: 'Home',
    group: 'Publish',
    key: 'h',
    icon: <IconHome />,
    component: screen(() => import('../features/first-run/HomeScreen'), 'HomeScreen'),
  },
  {
    screen: 'compose',
    label: 'Compose',
    group: 'Publish',
    key: 'c',
    icon: <IconCompose />,
    component: screen(() => import('../features/compose/ComposeScreen'), 'ComposeScreen'),
  },
  {
    screen: 'posts',
    label: 'Posts',
    group: 'Publish',
    key: 'p',
    icon: <IconList />,
    component: screen(() => import('../features/posts/PostsScreen'), 'PostsScreen'),
  },
  {
    screen: 'queue',
    label: 'Queue',
    group: 'Publish',
    key: 'q',
    icon: <IconClock />,
    component: screen(() => import('../features/queue/QueueScreen'), 'QueueScreen'),
  },
  {
    screen: 'calendar',
    label: 'Calendar',
    group: 'Publish',
    key: 'k',
    icon: <IconCalendar />,
    component: screen(() => import('../features/calendar/CalendarScreen'), 'CalendarScreen'),
  },
  {
    screen: 'bulk',
    label: 'Bulk',
    group: 'Publish',
    key: 'b',
    icon: <IconLayers />,
    component: screen(() => import('../features/bulk/BulkScreen'), 'BulkScreen'),
  },
  {
    screen: 'articles',
    label: 'Articles',
    group: 'Publish',
    key: 'a',
    icon: <IconDoc />,
    component: screen(() => import('../features/articles/ArticlesScreen'), 'ArticlesScreen'),
  },
  {
    screen: 'analytics',
    label: 'Analytics',
    group: 'Insights',
    key: 'i',
    icon: <IconChart />,
    component: screen(() => import('../features/analytics/AnalyticsScreen'), 'AnalyticsScreen'),
  },
  {
    screen: 'accounts',
    label: 'Accounts',
    group: 'Insights',
    key: 'u',
    icon: <IconUsers />,
    component: screen(() => import('../features/accounts/AccountsScreen'), 'AccountsScreen'),
  },
  {
    screen: 'automations',
    label: 'Automations',
    group: 'Automate',
    key: 'r',
    icon: <IconBolt />,
    component: screen(() => import('../features/automations/AutomationsScreen'), 'AutomationsScreen'),
  },
  {
    screen: 'inbox',
    label: 'Inbox',
    group: 'Automate',
    key: 'x',
    icon: <IconInbox />,
    component: screen(() => import('../features/inbox/InboxScreen'), 'InboxScreen'),
  },
  {
    screen: 'assistant',
    label: 'AI assistant',
    group: 'Automate',
    key: 'm',
    icon: <IconSpark />,
    component: screen(() => import('../features/assistant/AssistantScreen'), 'AssistantScreen'),
  },
  {
    screen: 'skills',
    label: 'Skills',
    group: 'Automate',
    key: 's',
    icon: <IconBook />,
    component: screen(() => import('../features/skills/SkillsScreen'), 'SkillsScreen'),
  },
  {
    screen: 'settings',
    label: 'Settings',
    group: 'App',
    key: ',',
    icon: <IconSettings />,
    component: screen(() => import('../features/settings/SettingsScreen'), 'SettingsScreen'),
  },
];

/** Where the app opens: Home, with the first-run checklist until it is put away. */
export const DEFAULT_SCREEN = 'home';

export const routeFor = (name: string): RouteDef =>
  ROUTES.find((r) => r.screen === name) ?? (ROUTES.find((r) => r.screen === DEFAULT_SCREEN) as RouteDef);
