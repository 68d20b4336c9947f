import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IDS, TEST_KEYS, startTestSandbox, type TestSandbox, jsonOf, type Loose } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A plain client that repeats the identical request after a dropped connection or a 503. */
async function withRetry(
  counter: { drops: number },
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Loose }> {
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const res = await fetch(`${sb.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status === 503) continue;
      return { status: res.status, body: await jsonOf(res) };
    } catch {
      counter.drops += 1;
    }
  }
  throw new Error(`${method} ${path} never answered`);
}

it('ends with exactly the intended records when 30% of answers are lost', async () => {
  await sb.control.faults({ reset_rate: 0.3, seed: 2024 });
  const counter = { drops: 0 };

  const batches = Array.from({ length: 5 }, (_, b) => ({
    batch_id: randomUUID(),
    items: Array.from({ length: 20 }, (_, i) => ({
      item_key: `b${b}-i${i}`,
      caption: `post ${b}.${i}`,
      action: 'draft',
      targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
    })),
  }));
  for (const batch of batches) {
    const res = await withRetry(counter, 'POST', '/api/cli/posts/bulk', batch);
    expect(res.status).toBe(201);
    expect(res.body.created_count).toBe(20);
  }

  const media = Array.from({ length: 8 }, (_, i) => {
    const bytes = Buffer.from(`image bytes ${i} ${'x'.repeat(i * 10)}`);
    return {
      bytes,
      body: {
        // Half retry by asset_id, half rely on the content hash.
        ...(i % 2 === 0 ? { asset_id: randomUUID() } : {}),
        content_type: 'image/jpeg',
        content_length: bytes.length,
        content_sha256: createHash('sha256').update(bytes).digest('hex'),
        content_md5: createHash('md5').update(bytes).digest('hex'),
      },
    };
  });
  for (const m of media) {
    const r = await withRetry(counter, 'POST', '/api/cli/media/uploads', m.body);
    expect(r.status).toBe(201);
    const put = await fetch(r.body.upload_url, {
      method: 'PUT',
      headers: r.body.upload_headers,
      body: m.bytes,
    });
    expect(put.status).toBe(200);
    const done = await withRetry(counter, 'PATCH', '/api/cli/media/uploads', { asset_id: r.body.asset_id });
    expect(done.status).toBe(200);
  }

  await sb.control.faults({});
  expect(counter.drops).toBeGreaterThan(5);
  expect(await sb.control.state()).toMatchObject({
    posts: 100,
    deliveries: { draft: 100 },
    batches: 5,
    bulk_items: 100,
    media: { pending: 0, uploaded: 8 },
  });
});
