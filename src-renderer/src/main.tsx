import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installWebBridge } from '../../src-shared/ipc/ws-client';
import { App, NoBridge } from './app/App';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/layout.css';
import './styles/screens.css';

// In Electron the preload has already set window.postdesk; under `postdesk web` this builds it.
const host = installWebBridge(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(<StrictMode>{host ? <App /> : <NoBridge />}</StrictMode>);
