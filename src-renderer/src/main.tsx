import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installWebBridge } from '../../src-shared/ipc/ws-client';
import { readLaunchCode } from '../../src-shared/ipc/ws-protocol';
import { App, NoBridge } from './app/App';
import { installTheme } from './app/preferences';
import { useLinkStore } from './stores/use-link-store';
import './styles/fonts.css';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/layout.css';
import './styles/screens.css';

installTheme();
const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
const mount = createRoot(root);

// A link pasted into a tab already on the page changes only the fragment: load it for real, so its
// code is traded (and leaves the address bar) like any link's.
window.addEventListener('hashchange', () => {
  if (readLaunchCode(window.location.hash)) window.location.reload();
});
// In Electron the preload has already set window.postdesk; under `postdesk web` this builds it, after
// trading the link's one-time code for the session secret.
void installWebBridge(window, { onLinkChange: (state) => useLinkStore.getState().set(state) }).then((host) =>
  mount.render(
    <StrictMode>
      {host === 'electron' || host === 'web' ? (
        <App />
      ) : (
        <NoBridge reason={host === 'refused' ? 'used-link' : 'no-link'} />
      )}
    </StrictMode>,
  ),
);
