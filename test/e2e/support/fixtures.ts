import { test as base, type Page } from '@playwright/test';
import { makeMediaFiles, type TestFile } from './media-files';
import { openConnected } from './page';
import { startWebHost, type WebHost } from './web-host';

/**
 * One `postdesk web --sandbox` per worker (playwright.config.ts runs three), shared by its flows; `app` is a
 * page already connected to its offline sandbox.
 */
export const test = base.extend<
  { app: Page },
  { host: WebHost; media: { png: TestFile; mp4: TestFile; webm: TestFile } }
>({
  host: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const host = await startWebHost();
      await use(host);
      await host.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  media: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => use(await makeMediaFiles()),
    { scope: 'worker' },
  ],
  app: async ({ page, host }, use) => {
    await openConnected(page, await host.nextUrl());
    await use(page);
  },
});

export { expect } from '@playwright/test';
