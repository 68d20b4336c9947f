import type { Automation, Run, RunState, Target } from '../../src-shared/api';

/** Rows as better-sqlite3 returns them (see schema.ts). */
export interface AutomationRow {
  id: string;
  owner_id: string;
  name: string;
  status: Automation['status'];
  execution_mode: Automation['execution_mode'];
  queue: Automation['queue'];
  cron: string;
  timezone: string;
  instructions: string;
  skill: string | null;
  targets: string;
  executor_id: string | null;
  revision: number;
  acked_revision: number | null;
  acked_by: string | null;
  acked_at: string | null;
  scheduled_through: string;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  id: string;
  owner_id: string;
  automation_id: string;
  revision: number;
  queue: Automation['queue'];
  state: RunState;
  scheduled_for: string | null;
  idempotency_key: string;
  executor_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  claim_token_hash: string | null;
  claimed_at: string | null;
  lease_seconds: number | null;
  lease_expires_at: string | null;
  lease_expiries: number;
  output: string | null;
  result: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

export interface ExecutorRow {
  id: string;
  owner_id: string;
  name: string;
  agent_type: string;
  device_label: string | null;
  capabilities: string;
  created_at: string;
  updated_at: string;
  last_seen_at: string | null;
}

export interface EventRow {
  id: string;
  seq: number;
  run_id: string;
  owner_id: string;
  step_id: string;
  status: string;
  message: string | null;
  metadata: string | null;
  executor_id: string | null;
  created_at: string;
}

export type DirectUploadState = 'awaiting_upload' | 'processing' | 'published' | 'failed';

export interface DirectUploadRow {
  id: string;
  owner_id: string;
  run_id: string;
  social_account_id: string;
  platform: 'tiktok' | 'youtube';
  title: string;
  description: string | null;
  content_length: number;
  content_sha256: string;
  content_md5: string | null;
  state: DirectUploadState;
  expires_at: string;
  received_at: string | null;
  processing_until: string | null;
  status_reads: number;
  published_at: string | null;
  platform_post_id: string | null;
  error: string | null;
  object_path: string | null;
  created_at: string;
  updated_at: string;
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export function automationJson(row: AutomationRow): Automation {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    execution_mode: row.execution_mode,
    queue: row.queue,
    schedule: { cron: row.cron, timezone: row.timezone },
    instructions: row.instructions,
    skill: parseJson(row.skill) as Automation['skill'],
    targets: parseJson(row.targets) as Target[],
    executor_id: row.executor_id,
    revision: row.revision,
    acked_revision: row.acked_revision,
    acked_by: row.acked_by,
    acked_at: row.acked_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function automationTargets(row: AutomationRow): Target[] {
  return parseJson(row.targets) as Target[];
}

export function runJson(row: RunRow): Run {
  return {
    id: row.id,
    automation_id: row.automation_id,
    revision: row.revision,
    queue: row.queue,
    state: row.state,
    scheduled_for: row.scheduled_for,
    idempotency_key: row.idempotency_key,
    executor_id: row.executor_id,
    started_at: row.started_at,
    finished_at: row.finished_at,
    error: row.error,
    claimed_at: row.claimed_at,
    lease_expires_at: row.lease_expires_at,
    lease_expiries: row.lease_expiries,
    output: parseJson(row.output),
    result: parseJson(row.result),
    metadata: parseJson(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function executorJson(row: ExecutorRow): Record<string, unknown> & {
  id: string;
  name: string;
  agent_type: string;
} {
  return {
    id: row.id,
    name: row.name,
    agent_type: row.agent_type,
    device_label: row.device_label,
    capabilities: parseJson(row.capabilities),
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_seen_at: row.last_seen_at,
  };
}

export function eventJson(row: EventRow): Record<string, unknown> & { id: string } {
  return {
    id: row.id,
    run_id: row.run_id,
    step_id: row.step_id,
    status: row.status,
    message: row.message,
    metadata: parseJson(row.metadata),
    executor_id: row.executor_id,
    created_at: row.created_at,
  };
}

export function directUploadStatusJson(row: DirectUploadRow): Record<string, unknown> & {
  id: string;
  state: DirectUploadState;
} {
  return {
    id: row.id,
    run_id: row.run_id,
    social_account_id: row.social_account_id,
    platform: row.platform,
    state: row.state,
    title: row.title,
    bytes: row.content_length,
    received_at: row.received_at,
    published_at: row.published_at,
    platform_post_id: row.platform_post_id,
    error: row.error,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
