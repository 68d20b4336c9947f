import type { z } from 'zod';
import * as A from './accounts';
import * as P from './posts';
import * as B from './bulk';
import * as M from './media';
import * as Ar from './articles';
import * as An from './analytics';
import * as S from './skills';
import * as R from './automations';

/**
 * Which credential an operation accepts, from the service's credential table.
 * `runTokenOrApiKey+executor`: a run token, or an API key together with `executor_id` in the body.
 */
export type Credential = 'none' | 'apiKey' | 'runToken' | 'runTokenOrApiKey' | 'runTokenOrApiKey+executor';

/**
 * Whether a client may repeat the request after a lost response. `idempotent-key` operations are
 * safe only because the body carries the identity (`asset_id`, `batch_id`/`item_key`, `idempotency_key`).
 */
export type RetryPolicy = 'safe' | 'idempotent-key' | 'never';

export interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** With `{id}` placeholders. */
  readonly path: string;
  readonly credential: Credential;
  /** A scope the API key must hold besides (403 `FORBIDDEN_SCOPE` without it). */
  readonly scope?: 'media:write';
  readonly retry: RetryPolicy;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly response: z.ZodType;
  readonly status: number;
}

const op = <T extends Operation>(o: T): T => o;

/** Every operation of service-api.md, keyed by a stable name used by the client, CLI and MCP tools. */
export const OPERATIONS = {
  listAccounts: op({
    method: 'GET',
    path: '/api/cli/accounts',
    credential: 'apiKey',
    retry: 'safe',
    response: A.ListAccountsResponse,
    status: 200,
  }),
  listPosts: op({
    method: 'GET',
    path: '/api/cli/posts',
    credential: 'apiKey',
    retry: 'safe',
    query: P.ListPostsQuery,
    response: P.ListPostsResponse,
    status: 200,
  }),
  createPost: op({
    method: 'POST',
    path: '/api/cli/posts',
    credential: 'apiKey',
    retry: 'never',
    body: P.CreatePostRequest,
    response: P.CreatePostResponse,
    status: 201,
  }),
  updatePost: op({
    method: 'PATCH',
    path: '/api/cli/posts',
    credential: 'apiKey',
    retry: 'never',
    body: P.UpdatePostRequest,
    response: P.UpdatePostResponse,
    status: 200,
  }),
  deletePost: op({
    method: 'DELETE',
    path: '/api/cli/posts',
    credential: 'apiKey',
    retry: 'never',
    body: P.DeletePostRequest,
    response: P.SuccessResponse,
    status: 200,
  }),
  bulkCreate: op({
    method: 'POST',
    path: '/api/cli/posts/bulk',
    credential: 'apiKey',
    retry: 'idempotent-key',
    body: B.BulkCreateRequest,
    response: B.BulkResult,
    status: 201,
  }),
  bulkInspect: op({
    method: 'GET',
    path: '/api/cli/posts/bulk',
    credential: 'apiKey',
    retry: 'safe',
    query: B.BulkInspectQuery,
    response: B.BulkResult,
    status: 200,
  }),
  bulkUpdate: op({
    method: 'PATCH',
    path: '/api/cli/posts/bulk',
    credential: 'apiKey',
    retry: 'never',
    body: B.BulkUpdateRequest,
    response: B.BulkUpdateResponse,
    status: 200,
  }),
  reserveMedia: op({
    method: 'POST',
    path: '/api/cli/media/uploads',
    credential: 'apiKey',
    scope: 'media:write',
    retry: 'idempotent-key',
    body: M.MediaReservationRequest,
    response: M.MediaReservationResponse,
    status: 201,
  }),
  completeMedia: op({
    method: 'PATCH',
    path: '/api/cli/media/uploads',
    credential: 'apiKey',
    retry: 'safe',
    body: M.CompleteUploadRequest,
    response: M.MediaAsset,
    status: 200,
  }),
  listArticles: op({
    method: 'GET',
    path: '/api/cli/articles',
    credential: 'apiKey',
    retry: 'safe',
    query: Ar.ListArticlesQuery,
    response: Ar.ListArticlesResponse,
    status: 200,
  }),
  createArticle: op({
    method: 'POST',
    path: '/api/cli/articles',
    credential: 'apiKey',
    retry: 'never',
    body: Ar.CreateArticleRequest,
    response: Ar.CreateArticleResponse,
    status: 201,
  }),
  deleteArticle: op({
    method: 'DELETE',
    path: '/api/cli/articles',
    credential: 'apiKey',
    retry: 'never',
    body: Ar.DeleteArticleRequest,
    response: P.SuccessResponse,
    status: 200,
  }),
  analytics: op({
    method: 'GET',
    path: '/api/cli/analytics',
    credential: 'apiKey',
    retry: 'safe',
    query: An.AnalyticsQuery,
    response: An.AnalyticsResponse,
    status: 200,
  }),
  listSkills: op({
    method: 'GET',
    path: '/api/skills',
    credential: 'none',
    retry: 'safe',
    response: S.ListSkillsResponse,
    status: 200,
  }),
  getSkill: op({
    method: 'GET',
    path: '/api/skills/{id}',
    credential: 'none',
    retry: 'safe',
    query: S.GetSkillQuery,
    response: S.GetSkillResponse,
    status: 200,
  }),
  listAutomations: op({
    method: 'GET',
    path: '/api/automations',
    credential: 'runTokenOrApiKey',
    retry: 'safe',
    response: R.ListAutomationsResponse,
    status: 200,
  }),
  registerExecutor: op({
    method: 'POST',
    path: '/api/agent/executors',
    credential: 'apiKey',
    retry: 'never',
    body: R.RegisterExecutorRequest,
    response: R.RegisterExecutorResponse,
    status: 200,
  }),
  syncAutomations: op({
    method: 'GET',
    path: '/api/agent/automations/sync',
    credential: 'apiKey',
    retry: 'safe',
    query: R.SyncQuery,
    response: R.SyncResponse,
    status: 200,
  }),
  ackAutomation: op({
    method: 'POST',
    path: '/api/agent/automations/{id}/ack',
    credential: 'apiKey',
    retry: 'safe',
    body: R.AckRequest,
    response: R.AckResponse,
    status: 200,
  }),
  startRun: op({
    method: 'POST',
    path: '/api/agent/automations/{id}/start',
    credential: 'apiKey',
    retry: 'idempotent-key',
    body: R.StartRunRequest,
    response: R.StartRunResponse,
    status: 200,
  }),
  getRun: op({
    method: 'GET',
    path: '/api/agent/runs/{id}',
    credential: 'apiKey',
    retry: 'safe',
    query: R.GetRunQuery,
    response: R.RunResponse,
    status: 200,
  }),
  runEvent: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/events',
    credential: 'runTokenOrApiKey',
    retry: 'never',
    body: R.RunEventRequest,
    response: R.RunEventResponse,
    status: 200,
  }),
  reserveRunMedia: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/media/uploads',
    credential: 'runToken',
    retry: 'idempotent-key',
    body: M.MediaReservationRequest,
    response: M.MediaReservationResponse,
    status: 201,
  }),
  completeRunMedia: op({
    method: 'PATCH',
    path: '/api/agent/runs/{id}/media/uploads',
    credential: 'runToken',
    retry: 'safe',
    body: M.CompleteUploadRequest,
    response: M.MediaAsset,
    status: 200,
  }),
  directUpload: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/direct-upload',
    credential: 'runToken',
    retry: 'never',
    body: R.DirectUploadRequest,
    response: R.DirectUploadResponse,
    status: 200,
  }),
  directUploadStatus: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/direct-upload/status',
    credential: 'runToken',
    retry: 'safe',
    body: R.DirectUploadStatusRequest,
    response: R.DirectUploadStatusResponse,
    status: 200,
  }),
  completeLocal: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/complete-local',
    credential: 'runTokenOrApiKey',
    retry: 'never',
    body: R.CompleteLocalRequest,
    response: R.CompleteLocalResponse,
    status: 200,
  }),
  failRun: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/fail',
    credential: 'runTokenOrApiKey+executor',
    retry: 'never',
    body: R.FailRunRequest,
    response: R.RunResponse,
    status: 200,
  }),
  claimRun: op({
    method: 'POST',
    path: '/api/agent/runs/claim',
    credential: 'apiKey',
    retry: 'never',
    body: R.ClaimRequest,
    response: R.ClaimResponse,
    status: 200,
  }),
  renewClaim: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/renew',
    credential: 'apiKey',
    retry: 'safe',
    body: R.RenewRequest,
    response: R.RunResponse,
    status: 200,
  }),
  completeClaim: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/complete',
    credential: 'apiKey',
    retry: 'never',
    body: R.LegacyCompleteRequest,
    response: R.RunResponse,
    status: 200,
  }),
  skipClaim: op({
    method: 'POST',
    path: '/api/agent/runs/{id}/skip',
    credential: 'apiKey',
    retry: 'never',
    body: R.SkipRequest,
    response: R.RunResponse,
    status: 200,
  }),
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
export type BodyOf<N extends OperationName> = (typeof OPERATIONS)[N] extends {
  body: infer B extends z.ZodType;
}
  ? z.input<B>
  : never;
export type QueryOf<N extends OperationName> = (typeof OPERATIONS)[N] extends {
  query: infer Q extends z.ZodType;
}
  ? z.input<Q>
  : never;
export type ResponseOf<N extends OperationName> = z.infer<(typeof OPERATIONS)[N]['response']>;
