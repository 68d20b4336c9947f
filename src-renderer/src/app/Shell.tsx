import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { QueuedPosts } from '../components/QueuedPosts';
import { LoadingState } from '../components/states';
import { useDeepLinksStore } from '../stores/use-deep-links-store';
import { useDeliveryFailuresStore } from '../stores/use-delivery-failures-store';
import { KeyboardHelp } from './KeyboardHelp';
import { Notices } from './Notices';
import { useRoute } from './router';
import { routeFor } from './routes';
import { Sidebar } from './Sidebar';
import { useShortcuts } from './use-shortcuts';

export function Shell() {
  const route = useRoute();
  const def = routeFor(route.screen);
  const Screen = def.component;
  const [help, setHelp] = useState(false);
  const openHelp = useCallback(() => setHelp(true), []);
  const closeHelp = useCallback(() => setHelp(false), []);
  useShortcuts(openHelp);
  const visit = useDeepLinksStore((s) => s.visit);
  // Connected: ask for failures now rather than at the host's next poll.
  useEffect(() => void useDeliveryFailuresStore.getState().check(), []);

  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${def.label} · Postdesk`;
    // Move focus to the new screen so keyboard and screen-reader users land on it, not on the old link.
    if (first.current) first.current = false;
    else main.current?.focus({ preventScroll: true });
  }, [def]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <Sidebar current={def.screen} />
      <div className="shell__column">
        <main className="main" id="main" ref={main} tabIndex={-1} aria-label={def.label}>
          {def.screen === 'posts' || def.screen === 'compose' ? <QueuedPosts /> : null}
          <Suspense fallback={<LoadingState label={`Loading ${def.label}…`} />}>
            <Screen key={`${def.screen}:${visit}`} />
          </Suspense>
        </main>
        <Notices />
      </div>
      <KeyboardHelp open={help} onClose={closeHelp} />
    </div>
  );
}
