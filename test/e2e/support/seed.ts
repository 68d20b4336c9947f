import { expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import type { Account } from '../../../src-shared/api/accounts';
import type { CreatePostResponse } from '../../../src-shared/api/posts';
import { sandboxApi, type WebHost } from './web-host';

// The smallest PNG: 1×1, transparent.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A PNG uploaded to the sandbox as the contract says (reserve, PUT, complete); its asset id. */
export async function uploadPng(host: WebHost): Promise<string> {
  const hash = (alg: string) => createHash(alg).update(PNG).digest('hex');
  const r = await sandboxApi<{
    asset_id: string;
    upload_url: string;
    upload_headers: Record<string, string>;
    already_uploaded?: boolean;
  }>(host, '/api/cli/media/uploads', {
    method: 'POST',
    body: JSON.stringify({
      content_type: 'image/png',
      content_length: PNG.length,
      content_sha256: hash('sha256'),
      content_md5: hash('md5'),
    }),
  });
  // The same bytes uploaded before (another flow on this host): the PUT is skipped, as the contract says.
  if (!r.already_uploaded) {
    const put = await fetch(r.upload_url, { method: 'PUT', headers: r.upload_headers, body: PNG });
    expect(put.ok).toBe(true);
  }
  await sandboxApi(host, '/api/cli/media/uploads', {
    method: 'PATCH',
    body: JSON.stringify({ asset_id: r.asset_id }),
  });
  return r.asset_id;
}

export async function accountsOf(host: WebHost): Promise<Account[]> {
  return (await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts')).accounts;
}

/** A post created through the sandbox: scheduled at `scheduledAt`, or a draft without it. */
export async function createPost(
  host: WebHost,
  caption: string,
  targets: readonly Account[],
  scheduledAt?: string,
  media: readonly string[] = [],
): Promise<CreatePostResponse> {
  return sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: targets.map((a) => ({ social_account_id: a.id, platform: a.platform })),
      ...(scheduledAt ? { scheduled_at: scheduledAt } : { action: 'draft' }),
      ...(media.length ? { media: media.map((asset_id) => ({ asset_id })) } : {}),
    }),
  });
}
