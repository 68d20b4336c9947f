import type { BodyOf, ResponseOf } from '../../../src-shared/api';
import { NetworkError } from '../api/errors';
import { isErrorCode, type ErrorCode } from '../../../src-shared/api/errors';
import { retry, type RetryPolicy } from '../common/retry';

/**
 * The part of the core API client (src-main/core/api/client.ts) the executor calls. Declared here so
 * that tests and the app can hand in the real client, and so the executor names exactly what it needs.
 */
export interface ExecutorApi {
  registerExecutor(body: BodyOf<'registerExecutor'>): Promise<ResponseOf<'registerExecutor'>>;
  syncAutomations(executorId: string): Promise<ResponseOf<'syncAutomations'>>;
  ackAutomation(id: string, body: BodyOf<'ackAutomation'>): Promise<ResponseOf<'ackAutomation'>>;
  startRun(id: string, body: BodyOf<'startRun'>): Promise<ResponseOf<'startRun'>>;
  getRun(id: string, executorId: string): Promise<ResponseOf<'getRun'>>;
  runEvent(id: string, body: BodyOf<'runEvent'>, runToken?: string): Promise<unknown>;
  reserveRunMedia(
    id: string,
    runToken: string,
    body: BodyOf<'reserveRunMedia'>,
  ): Promise<ResponseOf<'reserveRunMedia'>>;
  completeRunMedia(
    id: string,
    runToken: string,
    body: BodyOf<'completeRunMedia'>,
  ): Promise<ResponseOf<'completeRunMedia'>>;
  directUpload(
    id: string,
    runToken: string,
    body: BodyOf<'directUpload'>,
    opts: { youtube: boolean },
  ): Promise<ResponseOf<'directUpload'>>;
  directUploadStatus(
    id: string,
    runToken: string,
    body: BodyOf<'directUploadStatus'>,
  ): Promise<ResponseOf<'directUploadStatus'>>;
  completeLocal(id: string, body: BodyOf<'completeLocal'>, runToken?: string): Promise<unknown>;
  failRun(id: string, body: BodyOf<'failRun'>, runToken?: string): Promise<unknown>;
  claimRun(body: BodyOf<'claimRun'>): Promise<ResponseOf<'claimRun'>>;
  renewClaim(id: string, body: BodyOf<'renewClaim'>): Promise<unknown>;
  completeClaim(id: string, body: BodyOf<'completeClaim'>): Promise<unknown>;
  skipClaim(id: string, body: BodyOf<'skipClaim'>): Promise<unknown>;
  reserveMedia(body: BodyOf<'reserveMedia'>): Promise<ResponseOf<'reserveMedia'>>;
  completeMedia(body: BodyOf<'completeMedia'>): Promise<ResponseOf<'completeMedia'>>;
  getSkillMarkdown(id: string, version?: string): Promise<string>;
}

/** The error facts the executor acts on, read from the client's ApiError / NetworkError. */
export interface ErrorFacts {
  /** HTTP status, or undefined when no response arrived (connection refused, reset, timeout). */
  readonly status: number | undefined;
  /** A code Postdesk knows, sent with an answer; any other is left in the message. */
  readonly code: ErrorCode | undefined;
  readonly message: string;
}

export function errorFacts(err: unknown): ErrorFacts {
  if (err && typeof err === 'object') {
    const e = err as { status?: unknown; code?: unknown; message?: unknown };
    const status = typeof e.status === 'number' ? e.status : undefined;
    const code = isErrorCode(e.code) && status !== undefined ? e.code : undefined;
    return { status, code, message: typeof e.message === 'string' ? e.message : String(err) };
  }
  return { status: undefined, code: undefined, message: String(err) };
}

const SOCKET_CODES = /^(UND_ERR|ECONN|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH)/;

/** Worth repeating: no answer (a network error), a 5xx, or 429. A client-side refusal never is. */
export function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return err.kind !== 'aborted';
  const { status } = errorFacts(err);
  if (status !== undefined) return status >= 500 || status === 429;
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && SOCKET_CODES.test(code);
}

export interface TransientRetry {
  /** Tries in all, the first included (default 6). */
  readonly attempts?: number;
  readonly signal?: AbortSignal;
  /**
   * Repeat only faults that came with an answer (5xx, 429): for calls that are not idempotent, where a
   * lost answer may hide a change the service made.
   */
  readonly answeredOnly?: boolean;
}

/**
 * The executor's retry policy: repeat a call while it fails transiently (no answer, 5xx, 429), backing off
 * from `baseMs` up to 3 s. Real time on purpose: a dropped connection heals in wall-clock time, whatever a
 * virtual clock says.
 */
export function transientRetry(baseMs: number, o: TransientRetry = {}): RetryPolicy {
  return {
    attempts: o.attempts ?? 6,
    minDelayMs: baseMs,
    maxDelayMs: 3000,
    signal: o.signal,
    shouldRetry: (err) => isTransient(err) && (!o.answeredOnly || errorFacts(err).status !== undefined),
  };
}

/** A call repeated under `transientRetry`, with the executor's first backoff. */
export type Retrier = <T>(fn: () => Promise<T>, o?: TransientRetry) => Promise<T>;

export function transientRetrier(baseMs: () => number): Retrier {
  return (fn, o) => retry(fn, transientRetry(baseMs(), o));
}

export const hasCode = (err: unknown, ...codes: readonly ErrorCode[]): boolean => {
  const { code } = errorFacts(err);
  return code !== undefined && codes.includes(code);
};
