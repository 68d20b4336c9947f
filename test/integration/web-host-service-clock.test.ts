import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONFIRMS_ADDRESS } from '../helpers/confirm';
import { TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';

/**
 * The pages judge "in the past" by the service's clock: the connection status carries how far it runs ahead of
 * this computer's (learned from the `Date` of its answers), here a sandbox three days ahead, through the real web
 * host over its WebSocket, on connect, on the event that tells it, and on a later status.
 */

const DAY = 24 * 3_600_000;
let sb: TestSandbox;
let host: TestWebHost;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: new Date(Date.now() + 3 * DAY).toISOString() }));
  host = await startTestWebHost('postdesk-web-clock-', { confirm: CONFIRMS_ADDRESS });
});
afterAll(async () => {
  await host?.close();
  await sb?.close();
});

it("tells the page the service's clock offset: three days ahead of this computer's", async () => {
  const { bridge } = host.page;
  const told = new Promise<number | undefined>((resolve) =>
    bridge.connection.onDidChange((s) => resolve(s.clock_offset_ms)),
  );
  const connected = await bridge.connection.connect({ base_url: sb.url, api_key: TEST_KEYS.a });
  expect(connected.ok).toBe(true);
  if (!connected.ok) return;
  const ahead = Date.parse(await sb.control.clock()) - Date.now();
  // The `Date` header has whole seconds, and the virtual clock stands still while real time runs.
  const near = (v: number | undefined) => expect(Math.abs((v ?? 0) - ahead)).toBeLessThan(5_000);
  near(connected.value.clock_offset_ms);
  near(await told);
  const status = await bridge.connection.status();
  expect(status.ok).toBe(true);
  if (status.ok) near(status.value.clock_offset_ms);
});
