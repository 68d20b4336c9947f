import type { PostdeskBridge } from '../../src-shared/ipc';

declare global {
  interface Window {
    /** Set by the Electron preload, or by `installWebBridge` for `postdesk web`; absent on a stray page. */
    postdesk?: PostdeskBridge;
  }
}
