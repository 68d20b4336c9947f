import type { ConfirmPort } from '../../src-main/core/bridge/confirm';

/**
 * The person, asked outside the page (the edge: a native dialog, the terminal), confirms the service address
 * they typed into Connect, and nothing else: for tests that connect a page to a sandbox of their own.
 */
export const CONFIRMS_ADDRESS: ConfirmPort = {
  confirm: async (change) =>
    change.lines.every((l) => l.startsWith('Requests, with your API key, go to: '))
      ? { confirmed: true }
      : { confirmed: false, reason: 'You chose Cancel.' },
};
