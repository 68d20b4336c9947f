/** Set by electron.vite.config.ts (`define`): true only in a main process built by `electron-vite dev`. */
declare const __POSTDESK_DEV_BUILD__: boolean | undefined;

/**
 * Whether this main process is a development build. A build-time constant, not an environment variable:
 * `electron-vite build` (and so every packaged app) compiles it to false, and the code it guards away.
 * Undefined (false) where no bundler ran, as under the tests.
 */
export const DEV_BUILD: boolean =
  typeof __POSTDESK_DEV_BUILD__ !== 'undefined' && __POSTDESK_DEV_BUILD__ === true;
