import type { BridgeError, BridgeErrorKind, BridgeIssue } from '../../../src-shared/ipc/bridge-error';
import { issuesText, namingFields } from '../../../src-shared/ipc/field-labels';
import { ApiError, CredentialMissingError, NetworkError, ValidationError, redact } from '../api/errors';
import { UploadError } from '../media/upload-errors';
import { BulkInterruptedError } from '../bulk/bulk';
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
  new BridgeFault(
    'not_connected',
    'Postdesk is not connected to a service. Connect with your API key, or try offline.',
  );
export const unavailable = (what: string) => new BridgeFault('unavailable', `${what} is not available here.`);

/** What a failure that Postdesk did not expect says: never its internals (a stack, a path, an errno). */
export const UNEXPECTED =
  'Postdesk ran into a problem it did not expect. Try again; if it happens again, restart Postdesk.';

const ERRNO = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/;
const TEMP_PATH =
  /(?:\/private)?(?:\/tmp|\/var\/tmp|\/var\/folders|\/dev\/shm)(?:\/[^\s,;:)'"`]*)?|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp(?:\\[^\s,;:)'"`]*)?/g;

/**
 * The last net under every message the bridge carries: whatever a module wrote for its own log or its
 * command line, the page gets it without a command to type (the clause naming one is cut), without an
 * errno (a parenthesis holding one goes), and without a temporary path. The modules say it right first;
 * this keeps a slip from reaching a person.
 */
export function forPeople(text: string): string {
  // A core error's own text nested in another's ("clip.mp4: reserveMedia failed: 503 CODE: words").
  let out = text.replace(
    /\b\w+ failed: network error \((\w+)[^)]*\) talking to ([^\s:]+(?::\d+)?): .*$/s,
    (_m, kind: string, host: string) => networkSentence({ kind: kind as NetworkError['kind'], host }),
  );
  out = out.replace(/\b[a-z][A-Za-z]+ failed: \d{3}(?: [A-Z][A-Z_]+)?: /g, '');
  out = out.replace(TEMP_PATH, 'a temporary file');
  out = out.replace(/\s*\([^()]*\)/g, (m) => (ERRNO.test(m) ? '' : m));
  out = out.replace(new RegExp(`${ERRNO.source}:?\\s*`, 'g'), '');
  const tick = out.indexOf('`');
  if (tick >= 0) {
    const head = out.slice(0, tick);
    const cut = Math.max(head.lastIndexOf('; '), head.lastIndexOf(' ('), head.lastIndexOf(', or '));
    out = cut > 0 ? `${out.slice(0, cut)}.` : out.replace(/`[^`]*`/g, '').replace(/`/g, '');
  }
  return out
    .replace(/\s{2,}/g, ' ')
    .replace(/\.\.$/, '.')
    .trim();
}

/** A field issue's message in words: the schema's rule without its regular expression or type names. */
export function issueMessageForPeople(message: string): string {
  if (/^must match /.test(message)) return 'is not in the form it should be';
  if (/^expected (string|nonoptional)/.test(message)) return 'must be filled in';
  if (/^expected number/.test(message)) return 'must be a number';
  if (/^expected boolean/.test(message)) return 'must be yes or no';
  if (/^expected array/.test(message)) return 'must be a list';
  if (/^expected (object|record)/.test(message)) return 'is missing';
  if (/^Invalid (input|union|option)/.test(message)) return 'is not one of the accepted kinds';
  if (/^Invalid (UUID|GUID)/i.test(message)) return 'is not a known id';
  if (/^expected (void|undefined|never)/.test(message)) return 'nothing is expected here';
  if (/^must be an ISO 8601 date-time/.test(message)) return 'must be a date and time';
  if (/^must be a valid (uuid|guid|cuid2?|ulid|nanoid)/.test(message)) return 'is not a known id';
  if (/^must be a valid url/.test(message)) return 'must be a web address (https://…)';
  return forPeople(message);
}

const issuesForPeople = (issues: readonly BridgeIssue[]): BridgeIssue[] =>
  issues.map((i) => ({ path: i.path, message: issueMessageForPeople(i.message) }));

/** The message of an `invalid_input` error: what was wrong, each field named as a person would. */
export const invalidInput = (issues: readonly BridgeIssue[]): string =>
  issues.length > 0
    ? `This could not be used. ${issuesText(issuesForPeople(issues))}`
    : 'This could not be used.';

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

/** A request that got no answer, said for a person: where, what happened, and what to try. */
export function networkSentence(e: Pick<NetworkError, 'host' | 'kind'>): string {
  const host = e.host;
  switch (e.kind) {
    case 'connect':
      return `Nothing answered at ${host}. Check the address, and that the service is running there.`;
    case 'dns':
      return `No server named ${host} could be found. Check the address.`;
    case 'timeout':
      return `${host} took too long to answer. Try again in a moment.`;
    case 'reset':
      return `The connection to ${host} broke before it answered. Try again in a moment.`;
    case 'aborted':
      return 'The request was cancelled before it was answered.';
    default:
      return `Postdesk could not reach ${host}. Check the connection, then try again.`;
  }
}

/** The service's own words from an ApiError message (`op failed: 409 CODE: words`). */
export function serviceWords(message: string): string {
  const m = /^[^:]+ failed: \d+(?: [A-Z_]+)?: (.*)$/s.exec(message);
  return m?.[1] ?? message;
}
/** The service's words, with any field path it names said as a person would. */
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
      const issues = issuesForPeople(e.issues);
      return { kind: 'invalid_input', message: invalidInput(issues), issues };
    }
    if (e instanceof ApiError) {
      const issues = issuesFrom(e.issues);
      return {
        kind: 'api',
        message: serviceMessage(e),
        status: e.status,
        ...(e.wireCode ? { code: e.wireCode } : {}),
        ...(issues ? { issues: issuesForPeople(issues) } : {}),
      };
    }
    if (e instanceof NetworkError) {
      return { kind: 'network', message: networkSentence(e) };
    }
    if (e instanceof CredentialMissingError) {
      return {
        kind: 'not_connected',
        message: 'Postdesk has no API key for this service. Connect again with your key.',
      };
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
    if (e instanceof BulkInterruptedError) {
      return {
        kind: 'network',
        message: `The service stopped answering partway: ${e.pending.length === 1 ? '1 batch is' : `${e.pending.length} batches are`} not confirmed yet. Submit the same file again to finish: the service creates nothing twice.`,
      };
    }
    if (e instanceof KeychainUnavailableError) {
      return {
        kind: 'unavailable',
        message:
          "The system's keychain, where Postdesk keeps your API key, is not available. Unlock or start it, then try again.",
      };
    }
    return { kind: 'internal', message: UNEXPECTED };
  })();
  // The service's words may name a field by its path: name it as a person would.
  const said = err.kind === 'api' ? namingFields(err.message) : err.message;
  return {
    ...err,
    message: forPeople(redact(said)),
    ...(err.issues
      ? { issues: err.issues.map((i) => ({ path: i.path, message: forPeople(redact(i.message)) })) }
      : {}),
  };
}
