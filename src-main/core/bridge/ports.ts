import type { ApiClient } from '../api/client';
import type { ConnectionStatus } from '../../../src-shared/ipc/connection';
import type { SettingsPatch, SettingsView } from '../../../src-shared/ipc/settings';
import type { BatchSummary, BulkPlan, BulkProgress, BulkSubmission } from '../../../src-shared/ipc/bulk';
import type { PickInput } from '../../../src-shared/ipc/files';
import type { ExecutorMetrics, ExecutorStatus } from '../../../src-shared/ipc/executor';
import type { RunDetail, RunRecord } from '../../../src-shared/ipc/runs';
import type { MediaUploaded, UploadProgress } from '../../../src-shared/ipc/media';
import type { Automation } from '../../../src-shared/api/automations';
import type { UploadContentType } from '../../../src-shared/api/media';
import type { CreatePostRequest, Delivery } from '../../../src-shared/api/posts';
import type { BulkUpdate } from '../../../src-shared/api/bulk';
import type { ChangePlan, SingleChange } from '../outbox/change-plans';
import type { SingleOutcome } from '../post-changes/recorded-single';
import type { RetryOf } from '../outbox/outbox';
import type { RetryResult, RetryWhen } from '../post-state/retry';
import type {
  CreatePostResult,
  DeliveryFailed,
  QueuedDecision,
  QueuedPost,
} from '../../../src-shared/ipc/posts';
import type { UpdateState } from '../../../src-shared/ipc/updates';
import type { DeliveryIndexPort } from '../deliveries/delivery-feed';
import type { UptimeLog } from '../gaps/uptime';
import type { DeliveryUnconfirmed } from '../../../src-shared/ipc/watch';
import type { ExportRequest, ExportResult } from '../../../src-shared/ipc/exports';
import type { QueueService } from '../queue/queue-service';

/**
 * What the bridge needs from the core, one narrow capability each, so handlers can be built before
 * (or without) a module and tests can hand in what they need. `adapters.ts` maps the real modules.
 */

/** `exports:run`: writes a file of posts, analytics or runs (`export-port.ts`). */
export interface ExportPort {
  run(req: Readonly<ExportRequest>): Promise<ExportResult>;
}

/** The service calls the bridge makes. */
export type BridgeApi = Pick<
  ApiClient,
  | 'listAccounts'
  | 'listPosts'
  | 'createPost'
  | 'updatePost'
  | 'deletePost'
  | 'bulkInspect'
  | 'bulkUpdate'
  | 'listArticles'
  | 'createArticle'
  | 'deleteArticle'
  | 'analytics'
  | 'listSkills'
  | 'getSkill'
  | 'listAutomations'
  | 'mcpFetch'
  | 'baseUrl'
  | 'clock'
>;

export interface ConnectionPort {
  status(): Promise<ConnectionStatus>;
  /** Checks the key by listing accounts, then stores it; throws the service's error otherwise. */
  connect(baseUrl: string, apiKey: string): Promise<ConnectionStatus>;
  useOffline(): Promise<ConnectionStatus>;
  disconnect(): Promise<ConnectionStatus>;
  /**
   * Whether Connect to `baseUrl` changes nothing the person has not already chosen: it is the address in use,
   * the saved one, or the embedded sandbox main started itself. Any other address is confirmed first.
   */
  isKnownAddress(baseUrl: string): Promise<boolean>;
  /** The client of the current connection; throws a `not_connected` fault when there is none. */
  api(): Promise<BridgeApi>;
}

/** The API key, write-only. */
export interface SecretsPort {
  set(apiKey: string): Promise<void>;
  has(): Promise<boolean>;
  clear(): Promise<void>;
}

export interface SettingsPort {
  get(): Promise<SettingsView>;
  update(patch: SettingsPatch): Promise<SettingsView>;
}

export interface UploadFile {
  readonly path: string;
  readonly contentType: UploadContentType;
  readonly size: number;
}
export interface UploadProgressSink {
  hash(bytesDone: number, bytesTotal: number): void;
  upload(phase: UploadProgress['phase'], bytesSent: number, bytesTotal: number): void;
}
export interface UploadPort {
  /** Hashes, reserves, PUTs and completes one managed upload. */
  upload(file: UploadFile, progress: UploadProgressSink): Promise<Omit<MediaUploaded, 'id'>>;
  /** Finishes uploads an earlier session left unfinished (state in the store); how many were finished. */
  resume(): Promise<{ finished: number; failed: number }>;
}

/** Post creates through the outbox; throws a fault when refused, or `network`/`OUTBOX_QUEUED` when not confirmed. */
export interface PostCreatePort {
  create(req: Readonly<CreatePostRequest>): Promise<CreatePostResult>;
  /** Sends entries left queued by an earlier session. */
  replay(): Promise<void>;
  /** What the service has not confirmed yet, oldest first, a create still waiting for its answer included. */
  queued(): readonly QueuedPost[];
  /** Makes a failed delivery again for its account, exactly once, then removes it (src-main/core/post-state). */
  retry(failed: Readonly<Delivery>, when: RetryWhen, platformName: string): Promise<RetryResult>;
  /** The failed deliveries retried, by the id of each delivery their retry made: its history. */
  retried(): ReadonlyMap<string, RetryOf>;
  /** The person's answer for a `needs_decision` post; false when it is not waiting for one. */
  decide(entryId: string, decision: QueuedDecision['decision']): Promise<boolean>;
  /**
   * One post's update or delete through the outbox's change record: recorded as its result before it is sent, a
   * lost answer read back before anything is said (src-main/core/post-changes/recorded-single.ts).
   */
  change(change: SingleChange): Promise<SingleOutcome>;
  /** Updates of many posts that carry their results (absolute times), recorded, then sent until each is settled. */
  changeMany(updates: readonly BulkUpdate[]): Promise<{ plan: ChangePlan; requests: number }>;
}

/** The desktop updater; absent in `postdesk web`, which answers phase `unsupported`. */
export interface UpdatesPort {
  state(): UpdateState;
  check(): Promise<UpdateState>;
  restartNow(): UpdateState;
}

/** Failed deliveries, found by polling and reported once. */
export interface DeliveryWatchPort {
  checkNow(): Promise<readonly DeliveryFailed[]>;
  /** Scheduled deliveries whose time passed without `posted` (kept until the service shows them posted). */
  unconfirmed(): readonly DeliveryUnconfirmed[];
}

/**
 * What a plan reads: text the page sent, or a granted file. `localMedia`: the file may name media files on
 * this computer (only one the user chose here; text and uploads came from a page and may not).
 */
export type BulkPlanSource =
  | { readonly text: string; readonly name?: string | undefined }
  | { readonly file: string; readonly name: string; readonly localMedia: boolean };

export interface BulkPort {
  /** `queue`: rows fill the posting queue's next free slots instead of reading a time. */
  plan(source: BulkPlanSource, opts?: { readonly queue?: boolean | undefined }): Promise<BulkPlan>;
  submit(planId: string, onProgress: (p: BulkProgress) => void): Promise<BulkSubmission>;
  history(): Promise<readonly BatchSummary[]>;
  resubmitFailed(batchId: string, onProgress: (p: BulkProgress) => void): Promise<BulkSubmission>;
}

export interface ExecutorPort {
  status(): Promise<ExecutorStatus>;
  pause(): Promise<ExecutorStatus>;
  resume(): Promise<ExecutorStatus>;
  syncNow(): Promise<ExecutorStatus>;
  runNow(automationId: string): Promise<RunRecord>;
  listRuns(filter: {
    automation_id?: string | undefined;
    limit?: number | undefined;
  }): Promise<readonly RunRecord[]>;
  /** Null when no such run is known. */
  getRun(id: string): Promise<RunDetail | null>;
  nextOccurrence(automation: Automation): string | null;
  /** The automations the running executor synced (any status); absent or empty: none runs. */
  automations(): readonly Automation[];
  /** The executor's figures (runs, start delay, last sync); null while none runs. */
  metrics(): Promise<ExecutorMetrics | null>;
}

/** Main's own open dialog; absent where the host has none (`postdesk web`). Answers the chosen paths. */
export interface FilePicker {
  pick(input: Readonly<PickInput>): Promise<readonly string[]>;
}

/**
 * The core as the bridge sees it: every port a handler needs is required. The two a host may lack (the embedded
 * executor, the desktop updater) are optional; for them `handlers.ts` assembles a smaller set of handlers, chosen
 * once, rather than each handler asking whether its port exists.
 */
export interface BridgeCore {
  readonly connection: ConnectionPort;
  readonly secrets: SecretsPort;
  readonly settings: SettingsPort;
  readonly uploads: UploadPort;
  readonly bulk: BulkPort;
  /** Post creates and changes, through the outbox. */
  readonly posts: PostCreatePort;
  readonly deliveries: DeliveryWatchPort;
  /** The app's and executor's start/stop history (Settings' marks on the next occurrences). */
  readonly uptime: UptimeLog;
  /** The local delivery index behind `posts:list`, `calendar:range` and the post groups. */
  readonly index: DeliveryIndexPort;
  readonly exports: ExportPort;
  /** The posting queue (slots kept on this computer). */
  readonly queue: QueueService;
  /** The embedded executor; absent (`postdesk web` on a real service): its channels answer `unavailable`. */
  readonly executor?: ExecutorPort | undefined;
  /** The desktop updater; absent in `postdesk web`, whose `updates` channels answer phase `unsupported`. */
  readonly updates?: UpdatesPort | undefined;
}
