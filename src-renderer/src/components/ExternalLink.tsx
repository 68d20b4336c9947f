import type { ReactNode } from 'react';
import { EXTERNAL_HOSTS, hostOfHttps, isAllowedExternal } from '../../../src-shared/external-links';
import { useConnectionStore } from '../stores/use-connection-store';

/** Whether a URL (from the service, an article, a skill) may be a link here: https on the shared allowlist. */
export function useLinkAllowed(href: string | null | undefined): boolean {
  const base = useConnectionStore((s) => s.status?.base_url ?? null);
  if (!href) return false;
  const own = hostOfHttps(base);
  return isAllowedExternal(href, own ? [...EXTERNAL_HOSTS, own] : EXTERNAL_HOSTS);
}

/**
 * A link out of the app. Only an https URL on the allowlist becomes a link, an ordinary one that opens a new
 * tab: in a browser (`postdesk web`) the browser opens it, in the desktop app main's window-open handler
 * hands it to the system browser after checking the same list. Anything else (`javascript:`, `data:`,
 * `file:`, another host) is shown as inert text, so no click of any button can follow it.
 */
export function ExternalLink({
  href,
  children,
  className,
}: {
  readonly href: string | null | undefined;
  readonly children?: ReactNode;
  readonly className?: string;
}) {
  const allowed = useLinkAllowed(href);
  if (!allowed || !href) {
    return (
      <span className={className ? `${className} link-text` : 'link-text'}>
        <bdi>{children ?? href}</bdi>
      </span>
    );
  }
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      <bdi>{children ?? href}</bdi>
    </a>
  );
}
