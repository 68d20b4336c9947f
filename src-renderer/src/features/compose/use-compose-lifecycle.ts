import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useComposeStore } from '../../stores/use-compose-store';
import { useMediaStore } from '../../stores/use-media-store';

/**
 * What the composer does while it is on screen: loads the accounts, the post this connection was writing and its
 * local drafts; follows the media's progress; keeps the post when its uploads change and when the screen or the
 * page goes away.
 */
export function useComposeLifecycle(): void {
  const ensureAccounts = useAccountsStore((s) => s.ensure);
  const listenMedia = useMediaStore((s) => s.listen);
  const uploadedKey = useMediaStore((s) => s.items.map((i) => i.uploaded?.asset_id ?? '').join(','));
  const compose = useComposeStore(useShallow((s) => pick(s, 'load', 'flush', 'loadDrafts', 'mediaChanged')));
  useEffect(() => void ensureAccounts(), [ensureAccounts]);
  useEffect(() => listenMedia(), [listenMedia]);
  useEffect(() => {
    void compose.load();
    void compose.loadDrafts();
    // Whatever is waiting for a pause in typing is kept when the screen or the page goes away.
    const keep = () => void compose.flush();
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [compose]);
  // Media kept with the post are its uploads: keep the post when they change.
  useEffect(() => compose.mediaChanged(), [uploadedKey, compose]);
}
