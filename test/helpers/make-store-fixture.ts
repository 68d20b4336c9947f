/**
 * Writes a `--data` store of the sandbox build in this tree as SQL text (`sqlite3 .dump`), for the upgrade test
 * (test/contract/store-upgrade.test.ts). Run it on the build whose store should stay readable, before a schema
 * change: `npx tsx test/helpers/make-store-fixture.ts test/fixtures/sandbox/stores/<name>.sql`. It drives the
 * sandbox over HTTP only, so it runs unchanged on any build, and fills every table the service writes: posts in
 * each status, media, a bulk batch, articles, an executor, runs in draft and auto mode with a direct upload.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../../src-sandbox/app';
import { FIXTURE_NOW, IDS, TEST_KEYS, demoFixture } from './sandbox';

/** Ids the upgrade test looks for. */
export const STORE_FIXTURE = {
  autoAutomation: '99999999-9999-4999-8999-000000000001',
  batchId: '99999999-9999-4999-8999-0000000000b1',
  assetId: '99999999-9999-4999-8999-0000000000a1',
} as const;

// The smallest body the direct upload accepts: an `ftyp` box, then filler.
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'ascii'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'ascii'),
  Buffer.alloc(64, 7),
]);
// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const hex = (algo: string, b: Buffer): string => createHash(algo).update(b).digest('hex');

export async function makeStoreFixture(out: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-fixture-'));
  const fixture = demoFixture({
    automations: [
      {
        id: IDS.automation,
        name: 'Draft automation',
        execution_mode: 'draft',
        schedule: { cron: '0 * * * *', timezone: 'UTC' },
        targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
      },
      {
        id: STORE_FIXTURE.autoAutomation,
        name: 'Auto automation',
        execution_mode: 'auto',
        schedule: { cron: '30 9 * * *', timezone: 'Europe/Berlin' },
        targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok' },
          { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' },
        ],
      },
    ],
  });
  const sandbox = await startSandbox({ port: 0, dataDir: dir, fixture, quiet: true });
  const call = async (method: string, path: string, body?: unknown, key: string = TEST_KEYS.a) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, never>;
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const x = [{ social_account_id: IDS.accounts.x, platform: 'x' }];
  const inHours = (h: number) => new Date(Date.parse(FIXTURE_NOW) + h * 3_600_000).toISOString();
  try {
    await call('POST', '/api/cli/posts', { caption: 'a draft', action: 'draft', targets: x });
    await call('POST', '/api/cli/posts', { caption: 'a schedule', scheduled_at: inHours(5), targets: x });
    await call('POST', '/api/cli/posts', { caption: 'published now', targets: x });

    const reserved = await call('POST', '/api/cli/media/uploads', {
      asset_id: STORE_FIXTURE.assetId,
      content_type: 'image/png',
      content_length: PNG.length,
      content_sha256: hex('sha256', PNG),
      content_md5: hex('md5', PNG),
    });
    const put = await fetch(reserved.upload_url as string, {
      method: 'PUT',
      headers: reserved.upload_headers as Record<string, string>,
      body: PNG,
    });
    if (put.status !== 200) throw new Error(`media PUT: ${put.status}`);
    await call('PATCH', '/api/cli/media/uploads', { asset_id: STORE_FIXTURE.assetId });

    const bulk = await call('POST', '/api/cli/posts/bulk', {
      batch_id: STORE_FIXTURE.batchId,
      items: [
        { item_key: 'one', caption: 'bulk one', action: 'draft', targets: x },
        { item_key: 'two', caption: 'bulk two', scheduled_at: inHours(6), targets: x },
        {
          item_key: 'three',
          caption: 'bulk three',
          action: 'draft',
          media: [{ asset_id: STORE_FIXTURE.assetId }],
          targets: x,
        },
      ],
    });
    await call('PATCH', '/api/cli/posts/bulk', {
      updates: [{ post_id: bulk.items[1].post_id, caption: 'bulk two, edited' }],
    });
    await call('POST', '/api/cli/articles', {
      title: 'An article',
      body_markdown: '# Hello',
      destinations: ['devto', 'x'],
      action: 'publish',
    });

    const executor = IDS.executor;
    await call('POST', `/api/agent/automations/${IDS.automation}/ack`, {
      executor_id: executor,
      revision: 1,
    });
    const draftRun = await call('POST', `/api/agent/automations/${IDS.automation}/start`, {
      executor_id: executor,
      revision: 1,
      idempotency_key: `${IDS.automation}:1:fixture`,
    });
    await call(
      'POST',
      `/api/agent/runs/${draftRun.run.id}/events`,
      { step_id: 'write', status: 'completed', message: 'caption written' },
      draftRun.run_token,
    );
    await call(
      'POST',
      `/api/agent/runs/${draftRun.run.id}/complete-local`,
      { caption: 'from the draft run', media_urls: ['https://cdn.example.com/a.png'] },
      draftRun.run_token,
    );

    const autoRun = await call('POST', `/api/agent/automations/${STORE_FIXTURE.autoAutomation}/start`, {
      executor_id: executor,
      revision: 1,
      idempotency_key: `${STORE_FIXTURE.autoAutomation}:1:fixture`,
    });
    const token = autoRun.run_token as string;
    const { session } = await call(
      'POST',
      `/api/agent/runs/${autoRun.run.id}/direct-upload`,
      {
        social_account_id: IDS.accounts.tiktok,
        title: 'Fixture clip',
        content_type: 'video/mp4',
        content_length: MP4.length,
        content_sha256: hex('sha256', MP4),
      },
      token,
    );
    const sent = await fetch(session.upload_url as string, {
      method: 'PUT',
      headers: session.upload_headers as Record<string, string>,
      body: MP4,
    });
    if (sent.status !== 200) throw new Error(`direct upload PUT: ${sent.status}`);
    const statusPath = `/api/agent/runs/${autoRun.run.id}/direct-upload/status`;
    await call('POST', statusPath, { direct_upload_id: session.id }, token);
    await call('POST', statusPath, { direct_upload_id: session.id }, token);
    await call(
      'POST',
      `/api/agent/runs/${autoRun.run.id}/complete-local`,
      {
        caption: 'from the auto run',
        published_targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok', direct_upload_id: session.id },
        ],
      },
      token,
    );
    await call(
      'POST',
      '/api/cli/posts',
      { caption: 'owner b', action: 'draft', targets: [{ social_account_id: IDS.accountB, platform: 'x' }] },
      TEST_KEYS.b,
    );
  } finally {
    await sandbox.close();
  }
  const dump = execFileSync('sqlite3', [join(dir, 'sandbox.db'), '.dump'], { encoding: 'utf8' });
  writeFileSync(out, dump);
  rmSync(dir, { recursive: true, force: true });
}

const target = process.argv[2];
if (
  target &&
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  await makeStoreFixture(resolve(target));
  console.log(`wrote ${target}`);
}
