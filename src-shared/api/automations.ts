import { z } from 'zod';
import { LIMITS } from './limits';
import { Caption, DateTime, Platform, Slide, Target, Uuid } from './common';
import { Md5Hex, Sha256Hex } from './media';

export const AUTOMATION_STATUSES = ['active', 'paused', 'removed'] as const;
export const EXECUTION_MODES = ['draft', 'auto'] as const;
/** Run states are the sandbox's names (docs/sandbox.md); `pending` exists for legacy-queue runs only. */
export const RUN_STATES = ['pending', 'claimed', 'running', 'completed', 'failed', 'skipped'] as const;
export const ACTIVE_RUN_STATES = ['claimed', 'running'] as const;
export const RunState = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunState>;

export const Automation = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(AUTOMATION_STATUSES),
  execution_mode: z.enum(EXECUTION_MODES),
  queue: z.enum(['local', 'legacy']),
  schedule: z.looseObject({ cron: z.string(), timezone: z.string() }),
  instructions: z.string(),
  skill: z.looseObject({ id: z.string(), version: z.string() }).nullable().optional(),
  targets: z.array(Target),
  executor_id: z.string().nullable().optional(),
  revision: z.number().int(),
  acked_revision: z.number().int().nullable().optional(),
});
export type Automation = z.infer<typeof Automation>;
export const ListAutomationsResponse = z.looseObject({ automations: z.array(Automation) });
export type ListAutomationsResponse = z.infer<typeof ListAutomationsResponse>;

export const Run = z.looseObject({
  id: z.string(),
  automation_id: z.string(),
  revision: z.number().int(),
  state: RunState,
  scheduled_for: DateTime.nullable(),
  idempotency_key: z.string().nullable().optional(),
  executor_id: z.string().nullable().optional(),
  started_at: DateTime.nullable().optional(),
  finished_at: DateTime.nullable().optional(),
  error: z.string().nullable().optional(),
  claim_token: z.string().nullable().optional(),
  lease_expires_at: DateTime.nullable().optional(),
});
export type Run = z.infer<typeof Run>;

export const RegisterExecutorRequest = z.object({
  executor_id: z.string().optional(),
  name: z.string().min(1).max(LIMITS.executorName),
  agent_type: z.string().min(1).max(LIMITS.agentType),
  device_label: z.string().optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});
export type RegisterExecutorRequest = z.infer<typeof RegisterExecutorRequest>;
export const Executor = z.looseObject({ id: z.string(), name: z.string(), agent_type: z.string() });
export const RegisterExecutorResponse = z.looseObject({ executor: Executor });
export type RegisterExecutorResponse = z.infer<typeof RegisterExecutorResponse>;

export const SyncQuery = z.object({ executor_id: z.string().min(1) });
export const SyncResponse = ListAutomationsResponse;

export const AckRequest = z.object({ executor_id: z.string().min(1), revision: z.number().int() });
export type AckRequest = z.infer<typeof AckRequest>;
export const AckResponse = z.looseObject({ automation: Automation });

export const StartRunRequest = z.object({
  executor_id: z.string().min(1),
  revision: z.number().int(),
  idempotency_key: z.string().min(1).max(LIMITS.idempotencyKey),
  scheduled_for: DateTime.optional(),
});
export type StartRunRequest = z.infer<typeof StartRunRequest>;
export const StartRunResponse = z.looseObject({
  run: Run,
  run_token: z.string(),
  run_token_expires_at: DateTime,
});
export type StartRunResponse = z.infer<typeof StartRunResponse>;

export const GetRunQuery = z.object({ executor_id: z.string().min(1) });
export const RunResponse = z.looseObject({ run: Run });
export type RunResponse = z.infer<typeof RunResponse>;

export const RUN_EVENT_STATUSES = ['started', 'completed', 'failed', 'info'] as const;
export const RunEventRequest = z.object({
  executor_id: z.string().optional(),
  step_id: z.string().min(1),
  status: z.enum(RUN_EVENT_STATUSES),
  message: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type RunEventRequest = z.infer<typeof RunEventRequest>;
export const RunEventResponse = z.looseObject({ event: z.looseObject({ id: z.string() }) });

export const DirectUploadRequest = z.object({
  social_account_id: Uuid,
  title: z.string().min(LIMITS.directUploadTitle.min).max(LIMITS.directUploadTitle.max),
  description: Caption.optional(),
  content_type: z.literal('video/mp4'),
  content_length: z.number().int().min(1).max(LIMITS.directUploadBytes),
  content_sha256: Sha256Hex,
  content_md5: Md5Hex.optional(),
});
export type DirectUploadRequest = z.infer<typeof DirectUploadRequest>;
export const DirectUploadSession = z.looseObject({
  id: z.string(),
  platform: Platform,
  upload_url: z.url(),
  upload_method: z.literal('PUT'),
  upload_headers: z.record(z.string(), z.string()),
  expires_at: DateTime,
  state: z.string(),
});
export type DirectUploadSession = z.infer<typeof DirectUploadSession>;
export const DirectUploadResponse = z.looseObject({ session: DirectUploadSession });
export const DirectUploadStatusRequest = z.object({ direct_upload_id: Uuid });
export const DirectUploadStatus = z.looseObject({
  id: z.string(),
  state: z.enum(['awaiting_upload', 'processing', 'published', 'failed']),
  platform_post_id: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
});
export const DirectUploadStatusResponse = z.looseObject({ status: DirectUploadStatus });
export type DirectUploadStatusResponse = z.infer<typeof DirectUploadStatusResponse>;

export const PublishedTarget = z.object({
  social_account_id: Uuid,
  platform: z.enum(['tiktok', 'youtube']),
  direct_upload_id: Uuid,
});
export const CompleteLocalRequest = z.object({
  caption: Caption,
  title: z.string().optional(),
  media_type: z.enum(['image', 'carousel', 'video']).optional(),
  media_urls: z.array(z.url()).max(LIMITS.mediaUrls).optional(),
  slides: z.array(Slide).max(LIMITS.slides).optional(),
  published_targets: z.array(PublishedTarget).max(LIMITS.publishedTargets).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  executor_id: z.string().optional(),
});
export type CompleteLocalRequest = z.infer<typeof CompleteLocalRequest>;
export const CompleteLocalResponse = z.looseObject({ run: Run });

export const FailRunRequest = z.object({
  error: z.string().min(1).max(LIMITS.runFailureMessage),
  claim_token: z.string().optional(),
  executor_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type FailRunRequest = z.infer<typeof FailRunRequest>;

export const ClaimRequest = z.object({
  automation_id: z.string().optional(),
  lease_seconds: z
    .number()
    .int()
    .min(LIMITS.leaseSeconds.min)
    .max(LIMITS.leaseSeconds.max)
    .default(LIMITS.leaseSeconds.default)
    .optional(),
});
export type ClaimRequest = z.input<typeof ClaimRequest>;
export const ClaimResponse = z.looseObject({
  run: Run.extend({ claim_token: z.string(), lease_expires_at: DateTime }).nullable(),
});
export type ClaimResponse = z.infer<typeof ClaimResponse>;
export const RenewRequest = z.object({
  claim_token: z.string().min(1),
  /** Without it the lease restarts with the claim's own length (not the 900 s claim default). */
  lease_seconds: z.number().int().min(LIMITS.leaseSeconds.min).max(LIMITS.leaseSeconds.max).optional(),
});
export const LegacyCompleteRequest = CompleteLocalRequest.omit({ published_targets: true }).extend({
  claim_token: z.string().min(1),
});
export type LegacyCompleteRequest = z.infer<typeof LegacyCompleteRequest>;
export const SkipRequest = z.object({
  claim_token: z.string().min(1),
  reason: z.string().max(1000).optional(),
});
