import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../src-main/core/api/client';
import { openMediaStore } from '../../src-main/core/media/media-store';
import { createUploader } from '../../src-main/core/media/upload';
import { openStore } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { IDS, TEST_KEYS } from '../helpers/sandbox';
import { startClientSandbox, type ClientSandbox } from '../helpers/client-sandbox';
import type { TestSandbox } from '../helpers/sandbox';

let env: ClientSandbox;
let sb: TestSandbox;
let dir: string;
let client: ApiClient;

beforeAll(async () => {
  env = await startClientSandbox('pd-media-run-');
  ({ sb, dir, client } = env);
});
afterAll(async () => {
  await env?.close();
});

it('uploads run media with the run token, and keeps the token out of the store', async () => {
  const started = await client.startRun(IDS.automation, {
    executor_id: IDS.executor,
    revision: 1,
    idempotency_key: `${IDS.automation}:1:media-run-test`,
  });
  const run = { runId: started.run.id as string, runToken: started.run_token };
  const dbFile = join(dir, 'run.db');
  const store = openStore(dbFile);
  const r = await createUploader({ api: client, store }).upload(mediaFixtures().mp4, { run });
  expect(r.asset.mime_type).toBe('video/mp4');
  const served = Buffer.from(
    await (await request(r.asset.public_url, { dispatcher: client.dispatcher })).body.arrayBuffer(),
  );
  expect(served.equals(readFileSync(mediaFixtures().mp4))).toBe(true);
  expect(await sb.control.state()).toMatchObject({ media: { uploaded: 1, pending: 0 } });

  const rec = openMediaStore(store)
    .all()
    .find((x) => x.assetId === r.assetId);
  expect(rec).toMatchObject({ runId: run.runId, state: 'completed' });
  store.close();
  // The WAL is folded in on close, so the file holds everything that was written.
  expect(readFileSync(dbFile).includes(run.runToken)).toBe(false);
  expect(readFileSync(dbFile).includes(TEST_KEYS.a)).toBe(false);
});
