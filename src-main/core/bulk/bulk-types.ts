import type { BulkItemResult } from '../../../src-shared/api/bulk';
import type { ApiClient } from '../api/client';
import { PostdeskError } from '../api/errors';
import type { MediaApi, UploadEvent, UploadOutcome, Uploader, UploaderOptions } from '../media/upload';
import type { BatchRecord, BulkStore } from './bulk-store';
import type { ImportPlan } from './plan';
import type { QueuePlacer } from './queue-rows';
import type { RowProblem } from './validate';

export type BulkApi = MediaApi &
  Pick<ApiClient, 'bulkCreate' | 'bulkInspect' | 'bulkUpdate' | 'iterateBulkResults' | 'listAccounts'>;

export type BulkEvent =
  | { readonly type: 'validated'; readonly total: number; readonly valid: number; readonly problems: number }
  | { readonly type: 'media'; readonly event: UploadEvent }
  | { readonly type: 'planned'; readonly importId: string; readonly batches: number; readonly items: number }
  | { readonly type: 'resuming'; readonly importId: string; readonly pending: number }
  | {
      readonly type: 'batch-sent';
      readonly batchId: string;
      readonly seq: number;
      readonly items: number;
      readonly created: number;
      readonly failed: number;
    }
  | {
      readonly type: 'batch-retry';
      readonly batchId: string;
      readonly seq: number;
      readonly attempt: number;
      readonly reason: string;
    }
  | {
      readonly type: 'batch-rejected';
      readonly batchId: string;
      readonly seq: number;
      readonly error: string;
    };

/** The store, scope, tools and signal mean what they mean to the uploader, which is given them as they are. */
export interface BulkOptions extends Pick<UploaderOptions, 'store' | 'scope' | 'tools' | 'signal'> {
  readonly api: BulkApi;
  readonly uploader?: Uploader | undefined;
  /** Batches in flight at once. */
  readonly concurrency?: number | undefined;
  /** Rounds of sending one batch (each already retried inside the client) before the import pauses. */
  readonly maxRounds?: number | undefined;
  readonly onEvent?: ((e: BulkEvent) => void) | undefined;
  readonly defaultTimezone?: string | undefined;
  readonly now?: (() => Date) | undefined;
}

export interface BatchSummary {
  readonly batchId: string;
  readonly seq: number;
  readonly items: number;
  readonly state: BatchRecord['state'];
  readonly created: number | null;
  readonly failed: number | null;
  readonly resubmitOf: string | null;
  readonly error: string | null;
}

export interface FailedRow {
  readonly row: number;
  readonly batchId: string;
  readonly itemKey: string;
  readonly error: string | null;
}

/**
 * `invalid`: rows failed validation, nothing was sent. `dry-run`: only the plan. `upload-failed`: a media upload
 * failed, no post was sent. `done`: every batch answered (some items may still have failed). `rejected`: the
 * service refused a whole batch.
 */
export type ImportState = 'invalid' | 'dry-run' | 'upload-failed' | 'done' | 'rejected';

export interface ImportReport {
  readonly file: string;
  readonly state: ImportState;
  readonly importId: string | null;
  /** The same file was imported before; its batches were resumed or reported, not created again. */
  readonly resumed: boolean;
  readonly plan: ImportPlan | null;
  readonly problems: readonly RowProblem[];
  /** What a platform may refuse but need not (its own rule, which the service does not state); nothing is held. */
  readonly warnings: readonly RowProblem[];
  /**
   * The same posts were imported before (found at the dry run too): Submit reports that import and sends
   * nothing again, unless `again`.
   */
  readonly importedBefore: { readonly importId: string; readonly createdAt: string } | null;
  readonly uploads: readonly UploadOutcome[];
  readonly batches: readonly BatchSummary[];
  readonly created: number;
  readonly failed: number;
  readonly failedRows: readonly FailedRow[];
}

/** Sending stopped with batches still unconfirmed; running the same import again resumes them. */
export class BulkInterruptedError extends PostdeskError {
  readonly importId: string;
  readonly pending: readonly string[];
  constructor(importId: string, pending: readonly string[], cause: string) {
    super(
      `${pending.length} batch(es) of import ${importId} are not confirmed yet (${cause}); run the same command again to resume: the batches are sent unchanged and the service creates nothing twice`,
    );
    this.importId = importId;
    this.pending = pending;
  }
  protected override details(): Record<string, unknown> {
    return { importId: this.importId, pending: this.pending };
  }
}

export interface ImportOptions {
  readonly dryRun?: boolean;
  /** Import a file again that was imported before (new batches, new posts). */
  readonly again?: boolean;
  /** Send the valid rows even when others are invalid. */
  readonly skipInvalid?: boolean;
  /** False: rows may not name media files on this computer (a CSV a page sent); see `validateRows`. */
  readonly localMedia?: boolean;
  /**
   * Fill queue slots instead of reading a time: the `scheduled_at`, `timezone` and `action` columns are not read,
   * and each row's targets go to the next free slots this places them in. The import's identity is the rows
   * without times (plus "queue"), so the same file imported again resumes or reports the first import, at the
   * slots it was given then, rather than filling new ones.
   */
  readonly queue?: QueuePlacer;
}

export interface Bulk {
  importFile(file: string, opts?: ImportOptions): Promise<ImportReport>;
  /** The import of the same posts made before, if any: what the dry run says as "Imported before". */
  importedBefore(
    file: string,
    opts?: { readonly queue?: boolean | undefined; readonly localMedia?: boolean | undefined },
  ): Promise<ImportReport['importedBefore']>;
  /** Sends every batch a crash left unconfirmed. */
  resumeImports(): Promise<ImportReport[]>;
  /** The batch's results read back from the service (paged), with local row numbers. */
  batchStatus(batchId: string): Promise<BatchStatus>;
  /** Sends the failed items of a batch again, as a new batch. */
  resubmitFailed(batchId: string): Promise<ImportReport>;
  readonly records: BulkStore;
}

export interface BatchStatus {
  readonly batchId: string;
  readonly importId: string | null;
  readonly total: number;
  readonly created: number;
  readonly failed: number;
  readonly items: readonly (BulkItemResult & { readonly row: number | null })[];
}

export class BulkUnknownBatchError extends PostdeskError {
  constructor(readonly batchId: string) {
    super(
      `batch ${batchId} was not sent from this machine's store, so its items cannot be resubmitted; \`postdesk bulk status ${batchId}\` shows its results`,
    );
  }
}

/** What the steps of an import share: the service, the local record, the uploader, where events go, the limits. */
export interface BulkContext {
  readonly api: BulkApi;
  /** Which service the records belong to. */
  readonly scope: string;
  readonly records: BulkStore;
  readonly uploader: Uploader;
  readonly emit: (e: BulkEvent) => void;
  readonly opts: BulkOptions;
  /** Batches in flight at once. */
  readonly concurrency: number;
  /** Rounds of sending one batch before the import pauses. */
  readonly maxRounds: number;
}
