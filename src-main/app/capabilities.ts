/**
 * What the shell needs from the core, and nothing more. Each consumer takes the narrowest of these
 * through its constructor, so a test hands it a fake and `main.ts` adapts the real services.
 */
import type { Delivery, Run } from '../../src-shared/api';
import type { ConnectionStatus } from '../../src-shared/ipc/connection';
import type { ExecutorStatus } from '../../src-shared/ipc/executor';
import type { Event } from '../core/common/events';
import type { Logger } from '../core/common/logger';
import type { UpdateChannel } from './update-state';

/** The core's log port: the shell reports what it catches through the same one. */
export type { Logger };

/** A run in progress, as the tray lists it. */
export type ActiveRun = Readonly<{ id: Run['id']; name: string }>;

/** A media upload in progress. */
export type ActiveUpload = Readonly<{ id: string; name: string }>;

export type FailedRun = Readonly<{ runId: Run['id']; automationName: string; error: string }>;

/** An occurrence that was not run (the machine slept or Postdesk was not running), with the executor's reason. */
export type MissedRun = Readonly<{
  automationId: string;
  automationName: string;
  scheduledFor: string | null;
  /** The id the run is shown under, when the executor recorded one. */
  runId?: Run['id'] | null;
  reason?: string | null;
}>;

export type FailedDelivery = Readonly<
  Pick<Delivery, 'id' | 'post_id' | 'platform'> & { error: string | null | undefined }
>;

export type ExecutorState = ExecutorStatus['state'];
export type ConnectionState = ConnectionStatus['state'];

/** Pausing around sleep: the executor keeps its own notion of "paused by the user". */
export interface ExecutorPauseControl {
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  /** Applies the missed-occurrence policy (skip, run once, run all) to what fell due meanwhile. */
  runMissed(reason: 'sleep'): Promise<void>;
}

/** What the tray and the updater read. */
export interface ExecutorActivity {
  state(): ExecutorState;
  activeRuns(): readonly ActiveRun[];
  lastError(): string | null;
  readonly onDidChangeState: Event<void>;
}

/** Stopping before quit: runs finish within the grace period or are failed with a reason. */
export interface ExecutorDrain {
  activeRuns(): readonly ActiveRun[];
  /**
   * Stops starting runs and resolves when the active ones have ended or, after the grace period, were
   * cancelled; `reason` is the cause ("Postdesk quit") the executor words its failures with.
   */
  stop(opts: Readonly<{ graceMs: number; reason: string }>): Promise<void>;
  /** Reports a run as failed to the service with this reason (used for runs left after the grace). */
  failRun(runId: string, reason: string): Promise<void>;
}

export interface RunEvents {
  readonly onDidFailRun: Event<FailedRun>;
  readonly onDidMissRun: Event<MissedRun>;
}

export type ExecutorControl = ExecutorPauseControl & ExecutorActivity & ExecutorDrain & RunEvents;

export interface UploadQueueControl {
  activeUploads(): readonly ActiveUpload[];
  /** Stops taking new uploads and resolves when the active ones have ended, or the grace period elapsed. */
  drain(opts: Readonly<{ graceMs: number }>): Promise<void>;
  /** Marks an unfinished upload as failed with this reason, so it shows up after the restart. */
  failUpload(id: string, reason: string): Promise<void>;
  readonly onDidChange: Event<void>;
}

export interface ConnectionSource {
  current(): ConnectionState;
  readonly onDidChange: Event<void>;
}

/** A run that left drafts in the inbox (told once per run, never per draft). */
export type DraftsWaiting = Readonly<{ runId: string; automationName: string | null; drafts: number }>;

/** A request an AI assistant made through `postdesk mcp`, waiting for approval in the Inbox. */
export type AssistantRequest = Readonly<{ id: string; tool: string }>;

export interface InboxEvents {
  readonly onDidDraftRun: Event<DraftsWaiting>;
  /** Each new request of an AI assistant (told once). */
  readonly onDidPropose?: Event<AssistantRequest>;
  readonly onDidChangeCount: Event<number>;
  /** Drafts waiting now. */
  count(): number;
}

/** A scheduled delivery whose time (and the grace) passed without the service saying `posted`. */
export type UnconfirmedDelivery = Readonly<
  Pick<Delivery, 'id' | 'post_id' | 'platform'> & { scheduledAt: string }
>;

export interface DeliveryEvents {
  readonly onDidFailDelivery: Event<FailedDelivery>;
  readonly onDidNotConfirm?: Event<UnconfirmedDelivery>;
}

/** The settings the shell applies itself. */
export type ShellSettings = Readonly<{ startAtLogin: boolean; updateChannel: UpdateChannel }>;

export interface ShellSettingsSource {
  get(): ShellSettings;
  readonly onDidChange: Event<ShellSettings>;
}
