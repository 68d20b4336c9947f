import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import {
  createUploader,
  UploadError,
  type MediaApi,
  type UploadEvent,
} from '../../src-main/core/media/upload';
import { openStore, type Store } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * The sandbox's upload address behind a relay that fails the first PUTs the way a storage front does (a 503, or the
 * connection dropped before an answer), then passes the bytes through untouched: the signature still checks.
 */
type Failure = 503 | 'drop' | 502 | 415;

let sb: TestSandbox;
let client: ApiClient;
let relay: Server;
let relayUrl: string;
let failures: Failure[] = [];
let puts = 0;
let dir: string;
let store: Store;

const drain = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

beforeAll(async () => {
  sb = await startTestSandbox();
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 1, minTimeoutMs: 5 } });
  relay = createServer((req, res) => {
    void (async () => {
      const body = await drain(req);
      puts += 1;
      const failure = failures.shift();
      if (failure === 'drop') return void req.socket.destroy();
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ code: 'RELAY', error: `relay answered ${failure}` }));
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'),
      ) as Record<string, string>;
      const answer = await request(`${sb.url}${req.url ?? '/'}`, { method: 'PUT', headers, body });
      res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.body.arrayBuffer()));
    })();
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => relay.close(r));
  await client.close();
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset();
  failures = [];
  puts = 0;
  dir = mkdtempSync(join(tmpdir(), 'pd-put-retry-'));
  store = openStore(join(dir, 'postdesk.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real client, with each upload address sent through the relay. */
const relayed = (): MediaApi => ({
  baseUrl: client.baseUrl,
  dispatcher: client.dispatcher,
  completeMedia: (b, o) => client.completeMedia(b, o),
  completeRunMedia: (...a) => client.completeRunMedia(...a),
  reserveRunMedia: (...a) => client.reserveRunMedia(...a),
  reserveMedia: async (b, o) => {
    const r = await client.reserveMedia(b, o);
    if (!r.upload_url) return r;
    const u = new URL(r.upload_url);
    return { ...r, upload_url: `${relayUrl}${u.pathname}${u.search}` };
  },
});

it('sends the same bytes again after a 503 and a dropped connection, then completes one asset', async () => {
  failures = [503, 'drop'];
  const events: UploadEvent[] = [];
  const uploader = createUploader({ api: relayed(), store, onEvent: (e) => events.push(e) });
  const r = await uploader.upload(mediaFixtures().webp);
  expect(puts).toBe(3);
  const retries = events.filter((e) => e.type === 'retry');
  expect(retries).toHaveLength(2);
  expect(retries.every((e) => e.type === 'retry' && /interrupted; sending it again/.test(e.reason))).toBe(
    true,
  );
  expect(events.filter((e) => e.type === 'reserved')).toHaveLength(1);
  expect(r.alreadyUploaded).toBe(false);
  expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 1 } });
});

it('gives up after four tries of a failing address with its last answer', async () => {
  failures = [503, 502, 503, 502, 503];
  const uploader = createUploader({ api: relayed(), store });
  const error = await uploader.upload(mediaFixtures().webp).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UploadError);
  expect((error as UploadError).kind).toBe('rejected');
  expect((error as UploadError).message).toMatch(/answered 502: RELAY: relay answered 502/);
  expect(puts).toBe(4);
});

it('does not send again what the address refused for good (a 4xx other than an expired address)', async () => {
  failures = [415];
  const uploader = createUploader({ api: relayed(), store });
  const error = await uploader.upload(mediaFixtures().webp).catch((e: unknown) => e);
  expect((error as UploadError).kind).toBe('rejected');
  expect(puts).toBe(1);
});

it('a cancel while waiting to try again ends the upload as cancelled', async () => {
  failures = [503, 503, 503, 503];
  const ac = new AbortController();
  const uploader = createUploader({
    api: relayed(),
    store,
    signal: ac.signal,
    onEvent: (e) => {
      if (e.type === 'retry') ac.abort();
    },
  });
  const error = await uploader.upload(mediaFixtures().webp).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UploadError);
  expect((error as UploadError).kind).toBe('aborted');
  expect(puts).toBe(1);
});
