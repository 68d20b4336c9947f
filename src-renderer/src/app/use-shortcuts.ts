import { useEffect, useRef } from 'react';
import { useComposeStore } from '../stores/use-compose-store';
import { navigate } from './router';
import { ROUTES } from './routes';

const isTyping = (el: EventTarget | null): boolean => {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
};

/**
 * Global keys, GitHub-style: `g` then a screen's key moves there, `n` starts a new post (the one being written stays a local draft), `?` shows
 * the list. Ignored while typing and when a modifier is held, so text fields and browser keys win.
 */
export function useShortcuts(onHelp: () => void): void {
  const pendingG = useRef<number | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      if (pendingG.current !== null) {
        window.clearTimeout(pendingG.current);
        pendingG.current = null;
        const route = ROUTES.find((r) => r.key === e.key.toLowerCase());
        if (route) {
          e.preventDefault();
          navigate(route.screen);
        }
        return;
      }
      if (e.key === 'g') {
        pendingG.current = window.setTimeout(() => (pendingG.current = null), 1200);
      } else if (e.key === 'n') {
        e.preventDefault();
        // A fresh post; the one being written stays kept as a local draft.
        void useComposeStore.getState().startNew();
        navigate('compose');
      } else if (e.key === '?') {
        e.preventDefault();
        onHelp();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onHelp]);
}
