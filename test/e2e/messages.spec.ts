import type { Account } from '../../src-shared/api/accounts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

/**
 * Issue 17, items 7 and 8: messages for people. What the screens show of a refusal names no command to type,
 * no temporary folder, no errno and no field path, and says what to do; where the app can do it (convert a
 * WebM), it offers a button instead of a hint.
 */

const DEVELOPER = /`|postdesk (media|bulk|config|login)|\/tmp\/|\bE[A-Z]{4,}\b|[a-z_]+\.\d+\.[a-z_]+/;

test('a WebM is refused in words, with a Convert button that makes an MP4 in main and uploads it', async ({
  app: page,
  media,
}) => {
  await goTo(page, 'Compose');
  await dropFiles(page, page.getByRole('group', { name: 'Media drop zone' }), [media.webm]);
  const attached = page.getByRole('list', { name: 'Attached media' });
  const card = attached.getByRole('listitem', { name: 'screen-recording.webm' });
  await expect(card).toContainText('Not accepted', { timeout: 20_000 });
  const checks = card.getByRole('list', { name: 'Checks for screen-recording.webm' });
  await expect(checks).toContainText('it can be converted to MP4');
  expect(await card.innerText()).not.toMatch(DEVELOPER);
  await screenshot(page, 'messages-webm-refused');

  // The conversion of a short clip may end between two polls: a recorder keeps every value the bar showed.
  // Page code, as text: the e2e project compiles without the DOM's types.
  await page.evaluate(`{
    const seen = (window.convertProgress = []);
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Converting screen-recording.webm"]');
      const now = bar?.getAttribute('aria-valuenow');
      if (now != null && seen.at(-1) !== now) seen.push(now);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  }`);
  await card.getByRole('button', { name: 'Convert to MP4' }).click();
  const converted = attached.getByRole('listitem', { name: 'screen-recording.mp4' });
  await expect(converted).toContainText('Uploaded', { timeout: 60_000 });
  await expect(attached.getByRole('listitem')).toHaveCount(1);
  const progress = await page.evaluate<string[]>('window.convertProgress');
  expect(progress.length, 'a progress bar showed while converting').toBeGreaterThan(0);
  expect(progress.map(Number)).toEqual([...progress.map(Number)].sort((a, b) => a - b));
  await screenshot(page, 'messages-webm-converted');
});

test('a bulk file sent through the browser that names a media file on disk says why it cannot be read and what to do', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  await goTo(page, 'Bulk');
  const text = [
    'caption,targets,scheduled_at,media',
    `"With a clip",x:${x?.id},${dayAfter(3)}T09:00:00Z,clips/launch.mp4`,
    `"Wrong id",x:not-an-id,${dayAfter(3)}T09:00:00Z,`,
  ].join('\n');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    { name: 'with-media.csv', type: 'text/csv', base64: Buffer.from(text).toString('base64') },
  ]);
  const table = page.getByRole('table', { name: 'Validation' });
  const clip = table.getByRole('row').filter({ hasText: 'With a clip' });
  await expect(clip).toContainText('a file sent through a browser page may not open other files');
  await expect(clip).toContainText('desktop app');
  const wrongId = table.getByRole('row').filter({ hasText: 'Wrong id' });
  await expect(wrongId).toContainText('the Accounts screen shows the id of each account');
  for (const row of [clip, wrongId]) expect(await row.innerText()).not.toMatch(DEVELOPER);
  await screenshot(page, 'messages-bulk-browser-media');
});
