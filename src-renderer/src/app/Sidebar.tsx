import { useEffect, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useConnectionStore } from '../stores/use-connection-store';
import { useServiceStore } from '../stores/use-service-store';
import { useAssistantStore } from '../stores/use-assistant-store';
import { useInboxStore } from '../stores/use-inbox-store';
import { hrefOf } from './router';
import { ROUTES, type RouteDef } from './routes';

const GROUPS: readonly RouteDef['group'][] = ['Publish', 'Insights', 'Automate', 'App'];

/** Up/Down move between the links, Home/End jump to the ends: the sidebar reads as one list. */
function onNavKey(e: KeyboardEvent<HTMLElement>) {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a.nav-link')];
  const i = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next =
    e.key === 'Home'
      ? 0
      : e.key === 'End'
        ? links.length - 1
        : (i + (e.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length;
  e.preventDefault();
  links[next]?.focus();
}

/**
 * How many drafts and AI assistants' requests wait in the inbox, kept current by the host's
 * `inbox:didChange` and `assistant:didChange`.
 */
function InboxCount() {
  const { drafts, load, listen } = useInboxStore(
    useShallow((s) => ({ drafts: s.waiting, load: s.load, listen: s.listen })),
  );
  const { requests, loadRequests, listenRequests } = useAssistantStore(
    useShallow((s) => ({ requests: s.waiting, loadRequests: s.loadProposals, listenRequests: s.listen })),
  );
  useEffect(() => {
    void load(null);
    return listen();
  }, [load, listen]);
  useEffect(() => {
    void loadRequests();
    return listenRequests();
  }, [loadRequests, listenRequests]);
  const waiting = (drafts ?? 0) + (requests ?? 0);
  if (!waiting) return null;
  return (
    <span className="nav-link__count" aria-label={`${waiting} waiting`}>
      {waiting}
    </span>
  );
}

export function Sidebar({ current }: { readonly current: string }) {
  const status = useConnectionStore(useShallow((s) => s.status));
  const failing = useServiceStore((s) => s.failing);
  const where = status?.offline
    ? 'Offline sandbox'
    : (status?.base_url?.replace(/^https?:\/\//, '') ?? 'Connected');
  return (
    <aside className="sidebar">
      <div className="sidebar__brand">
        <span className="brand-mark" aria-hidden="true">
          P
        </span>
        <span className="brand-name">Postdesk</span>
      </div>
      <nav className="sidebar__nav" aria-label="Main" onKeyDown={onNavKey}>
        {GROUPS.map((group) => (
          <div className="nav-group" key={group}>
            <p className="nav-group__title" aria-hidden="true">
              {group}
            </p>
            <ul className="nav-list">
              {ROUTES.filter((r) => r.group === group).map((r) => (
                <li key={r.screen}>
                  <a
                    className="nav-link"
                    href={hrefOf(r.screen)}
                    aria-current={current === r.screen ? 'page' : undefined}
                    aria-keyshortcuts={`g ${r.key}`}
                    title={r.label}
                  >
                    {r.icon}
                    <span className="nav-link__label">{r.label}</span>
                    {r.screen === 'inbox' ? <InboxCount /> : null}
                    <kbd className="nav-link__key" aria-hidden="true">
                      g {r.key}
                    </kbd>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="sidebar__footer">
        <div
          className={`connection-pill${failing ? ' connection-pill--failing' : ''}`}
          role="status"
          title={failing ? `${where}: the service is not answering` : (status?.base_url ?? undefined)}
        >
          <span
            className={`connection-pill__dot${failing ? ' connection-pill__dot--failing' : status?.offline ? ' connection-pill__dot--offline' : ''}`}
            aria-hidden="true"
          />
          <span className="connection-pill__text">
            {failing ? (
              <>
                <strong>The service is not answering</strong>
                <span className="connection-pill__where">{where}</span>
              </>
            ) : (
              where
            )}
          </span>
        </div>
        <span className="faint">
          Press <kbd>?</kbd> for shortcuts
        </span>
      </div>
    </aside>
  );
}
