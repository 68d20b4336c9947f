import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context';
import { DELETABLE_STATUSES, LIMITS } from '../src-shared/api';

/** The plain-text overview for agents at `/llms.txt`. */
export function llmsTxt(base: string): string {
  return `# Postdesk social publishing service (local sandbox)

> A free publishing control plane for social media. Agents upload finished media, then create,
> schedule or publish posts to connected accounts (tiktok, instagram, youtube, linkedin, x),
> publish long-form articles, read analytics, and run scheduled automations.

Base URL: ${base}
Auth: send \`Authorization: Bearer <API_KEY>\` (x-api-key is not accepted). Skills need no key.
Errors: JSON \`{"error": "...", "code": "..."}\`; post creation 400s carry \`issues\` instead of \`code\`.

## Accounts and posts
- GET /api/cli/accounts: connected accounts, newest first.
- POST /api/cli/posts: {caption, targets: [{social_account_id, platform}], media?: [{asset_id}|{url}], action?: "draft", scheduled_at?}.
  Draft, schedule (scheduled_at) or publish now (neither). YouTube is refused here: use an automation with a direct upload.
- GET /api/cli/posts?status=&platform=&limit=: deliveries (one per target), newest first.
- PATCH /api/cli/posts: {id (delivery or parent), status?: "draft"|"scheduled", caption?, scheduled_at?, add_targets?}.
- DELETE /api/cli/posts: {id}; only ${DELETABLE_STATUSES.join(', ')} deliveries.

## Bulk (up to ${LIMITS.bulkBatchSize} items, idempotent per batch_id + item_key)
- POST /api/cli/posts/bulk: {batch_id (uuid), items: [{item_key, caption, targets, media?: [{asset_id}], action: "draft" | scheduled_at}]}.
  Retrying the identical request is safe; changing an item under the same key answers 409.
- GET /api/cli/posts/bulk?batch_id=&offset=&limit=: the batch's results.
- PATCH /api/cli/posts/bulk: {updates: [{post_id, caption?, scheduled_at?, add_targets?}]}, each applied on its own.

## Media (scope media:write)
1. POST /api/cli/media/uploads {content_type, content_length, content_sha256, content_md5, asset_id?} -> upload_url, upload_headers.
   already_uploaded: true means skip the PUT and reuse asset_id.
2. PUT the bytes to upload_url with upload_headers (valid 10 minutes).
3. PATCH /api/cli/media/uploads {asset_id} -> the asset with public_url and metadata.
Limits: images (jpeg, png, webp) ${LIMITS.imageUploadBytes / 1024 / 1024} MiB, MP4 ${LIMITS.mp4UploadBytes / 1024 / 1024} MiB; ${LIMITS.mediaPendingUploads} pending uploads, ${LIMITS.mediaObjects} objects, 20 GiB.

## Articles, analytics, skills
- POST /api/cli/articles {title, body_markdown, destinations: [devto, hashnode, forum, linkedin, x], action?: "draft"|"publish"}; GET and DELETE /api/cli/articles.
- GET /api/cli/analytics?platform=&account_id=&post_id=&start_date=&end_date=&limit=.
- GET /api/skills and GET /api/skills/{id}?version=&format=markdown (no authentication).

## Automations
- GET /api/automations; runners use /api/agent/executors, /api/agent/automations/sync, .../{id}/ack, .../{id}/start,
  then /api/agent/runs/{id}/events, media/uploads, direct-upload, complete-local or fail.
- MCP: ${base}/api/mcp (streamable HTTP; the sandbox takes the API key as the bearer token).
`;
}

export function registerLlmsTxt(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/llms.txt', async (_req, reply) =>
    reply.header('content-type', 'text/plain; charset=utf-8').send(llmsTxt(ctx.publicBaseUrl())),
  );
}
