import type { BridgeError, BridgeErrorKind, BridgeIssue } from '../../../src-shared/ipc/bridge-error';
import { ApiError, CredentialMissingError, NetworkError, ValidationError, redact } from '../api/errors';
import { UploadError } from '../media/upload-errors';
import { KeychainUnavailableError } from '../secrets/secret-store';

/** A failure a handler raises on purpose, with the kind the renderer should see. */
export class BridgeFault extends Error {
  readonly kind: BridgeErrorKind;
  readonly issues: readonly BridgeIssue[] | undefined;
  /** The service's status and code, for an `api` fault raised from a recorded refusal. */
  readonly status: number | undefined;
  readonly code: string | undefined;
  constructor(
    kind: BridgeErrorKind,
    message: string,
    issues?: readonly BridgeIssue[],
    service?: Readonly<{ status?: number | undefined; code?: string | null | undefined }>,
  ) {
    super(message);
    this.name = 'BridgeFault';
    this.kind = kind;
    this.issues = issues;
    this.status = service?.status;
    this.code = service?.code ?? undefined;
  }
}

export const notConnected = () =>
  new BridgeFault('not_connected', 'Not connected: connect with an API key or try offline first.');
export const unavailable = (what: string) => new BridgeFault('unavailable', `${what} is not available here.`);

/** The service's `issues` object (post creation 400) as bridge issues. */
function issuesFrom(raw: unknown): BridgeIssue[] | undefined {
  if (Array.isArray(raw)) {
    return raw.map((i: unknown) => {
      const o = (i ?? {}) as { path?: unknown; message?: unknown };
      const path = Array.isArray(o.path) ? o.path.map(String).join('.') : String(o.path ?? '');
      return { path, message: String(o.message ?? JSON.stringify(i)) };
    });
  }
  if (raw && typeof raw === 'object') {
    return Object.entries(raw).map(([path, v]) => ({
      path,
      message: Array.isArray(v) ? v.map(String).join('; ') : typeof v === 'string' ? v : JSON.stringify(v),
    }));
  }
  return undefined;
}

/** The service's own words from an ApiError message (`op failed: 409 CODE: words`). */
export function serviceWords(message: string): string {
  const m = /^[^:]+ failed: \d+(?: [A-Z_]+)?: (.*)$/s.exec(message);
  return m?.[1] ?? message;
}
const serviceMessage = (e: ApiError): string => serviceWords(e.message);

/**
 * Any thrown value as a typed bridge error: kind, a readable message, the service's status and code.
 * Never a stack; every text passes the core's secret scrubber.
 */
export function toBridgeError(e: unknown): BridgeError {
  const err = ((): BridgeError => {
    if (e instanceof BridgeFault) {
      return {
        kind: e.kind,
        message: e.message,
        ...(e.status !== undefined ? { status: e.status } : {}),
        ...(e.code ? { code: e.code } : {}),
        ...(e.issues ? { issues: [...e.issues] } : {}),
      };
    }
    if (e instanceof ValidationError) {
      return { kind: 'invalid_input', message: e.message, issues: e.issues.map((i) => ({ ...i })) };
    }
    if (e instanceof ApiError) {
      const issues = issuesFrom(e.issues);
      return {
        kind: 'api',
        message: serviceMessage(e),
        status: e.status,
        ...(e.wireCode ? { code: e.wireCode } : {}),
        ...(issues ? { issues } : {}),
      };
    }
    if (e instanceof NetworkError) {
      return { kind: 'network', message: `Could not reach the service (${e.kind}).` };
    }
    if (e instanceof CredentialMissingError) {
      return { kind: 'not_connected', message: e.message };
    }
    if (e instanceof UploadError) {
      if (e.kind === 'check') return { kind: 'invalid_input', message: e.message };
      if (e.kind === 'network') return { kind: 'network', message: e.message };
      if (e.kind === 'quota') {
        return { kind: 'api', message: e.message, status: 429, code: 'MEDIA_STORAGE_QUOTA_EXCEEDED' };
      }
      if (e.kind === 'conflict')
        return { kind: 'api', message: e.message, status: 409, code: 'MEDIA_UPLOAD_CONFLICT' };
      return { kind: 'api', message: e.message };
    }
    if (e instanceof KeychainUnavailableError) return { kind: 'unavailable', message: e.message };
    return { kind: 'internal', message: e instanceof Error ? e.message : 'unexpected error' };
  })();
  return {
    ...err,
    message: redact(err.message),
    ...(err.issues ? { issues: err.issues.map((i) => ({ path: i.path, message: redact(i.message) })) } : {}),
  };
}
