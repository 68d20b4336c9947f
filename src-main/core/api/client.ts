import { LIMITS } from '../../../src-shared/api/limits';
import type { Dispatcher } from 'undici';
import {
  OPERATIONS,
  type BodyOf,
  type OperationName,
  type QueryOf,
  type ResponseOf,
} from '../../../src-shared/api/operations';
import type { BulkItemResult } from '../../../src-shared/api/bulk';
import { ApiError, CredentialMissingError, ValidationError, toFieldIssue } from './errors';
import { registerSecret } from './redact';
import { createServiceClock, type ServiceClock } from './service-clock';
import { createTransport, type Transport, type TransportOptions } from './transport';

/** The transport's options, plus the key: what the client adds on top of the connection. */
export interface ApiClientOptions extends TransportOptions {
  /** A key, or a function asked each time one is needed (so a keychain is only touched when an op needs it). */
  apiKey?: string | null | (() => Promise<string | null>);
}

export interface RequestInput<N extends OperationName> {
  params?: Record<string, string>;
  query?: QueryOf<N>;
  body?: BodyOf<N>;
  runToken?: string;
  /** Also send `x-service-runner-key` with the API key (YouTube direct uploads). */
  runnerKey?: boolean;
  signal?: AbortSignal;
}

export interface CallOptions {
  signal?: AbortSignal;
}

type Body<N extends OperationName> = BodyOf<N>;
type Query<N extends OperationName> = QueryOf<N>;
type Res<N extends OperationName> = Promise<ResponseOf<N>>;

export interface ApiClient {
  request<N extends OperationName>(name: N, input?: RequestInput<N>): Res<N>;
  /** The service's time, learned from its answers: what "now" and "a minute ahead" are measured by. */
  readonly clock?: ServiceClock;

  listAccounts(opts?: CallOptions): Res<'listAccounts'>;
  listPosts(query?: Query<'listPosts'>, opts?: CallOptions): Res<'listPosts'>;
  createPost(body: Body<'createPost'>, opts?: CallOptions): Res<'createPost'>;
  updatePost(body: Body<'updatePost'>, opts?: CallOptions): Res<'updatePost'>;
  deletePost(idOrBody: string | Body<'deletePost'>, opts?: CallOptions): Res<'deletePost'>;
  bulkCreate(body: Body<'bulkCreate'>, opts?: CallOptions): Res<'bulkCreate'>;
  bulkInspect(query: Query<'bulkInspect'>, opts?: CallOptions): Res<'bulkInspect'>;
  bulkUpdate(body: Body<'bulkUpdate'>, opts?: CallOptions): Res<'bulkUpdate'>;
  reserveMedia(body: Body<'reserveMedia'>, opts?: CallOptions): Res<'reserveMedia'>;
  completeMedia(body: Body<'completeMedia'>, opts?: CallOptions): Res<'completeMedia'>;
  listArticles(query?: Query<'listArticles'>, opts?: CallOptions): Res<'listArticles'>;
  createArticle(body: Body<'createArticle'>, opts?: CallOptions): Res<'createArticle'>;
  deleteArticle(idOrBody: string | Body<'deleteArticle'>, opts?: CallOptions): Res<'deleteArticle'>;
  analytics(query?: Query<'analytics'>, opts?: CallOptions): Res<'analytics'>;
  listSkills(opts?: CallOptions): Res<'listSkills'>;
  getSkill(id: string, query?: Query<'getSkill'>, opts?: CallOptions): Res<'getSkill'>;
  /** The skill as Markdown text (`format=markdown`). */
  getSkillMarkdown(id: string, version?: string, opts?: CallOptions): Promise<string>;
  listAutomations(runToken?: string, opts?: CallOptions): Res<'listAutomations'>;
  registerExecutor(body: Body<'registerExecutor'>, opts?: CallOptions): Res<'registerExecutor'>;
  syncAutomations(executorId: string, opts?: CallOptions): Res<'syncAutomations'>;
  ackAutomation(id: string, body: Body<'ackAutomation'>, opts?: CallOptions): Res<'ackAutomation'>;
  startRun(id: string, body: Body<'startRun'>, opts?: CallOptions): Res<'startRun'>;
  getRun(id: string, executorId: string, opts?: CallOptions): Res<'getRun'>;
  runEvent(id: string, body: Body<'runEvent'>, runToken?: string, opts?: CallOptions): Res<'runEvent'>;
  reserveRunMedia(
    id: string,
    runToken: string,
    body: Body<'reserveRunMedia'>,
    opts?: CallOptions,
  ): Res<'reserveRunMedia'>;
  completeRunMedia(
    id: string,
    runToken: string,
    body: Body<'completeRunMedia'>,
    opts?: CallOptions,
  ): Res<'completeRunMedia'>;
  directUpload(
    id: string,
    runToken: string,
    body: Body<'directUpload'>,
    options?: { youtube?: boolean } & CallOptions,
  ): Res<'directUpload'>;
  directUploadStatus(
    id: string,
    runToken: string,
    body: Body<'directUploadStatus'>,
    opts?: CallOptions,
  ): Res<'directUploadStatus'>;
  completeLocal(
    id: string,
    body: Body<'completeLocal'>,
    runToken?: string,
    opts?: CallOptions,
  ): Res<'completeLocal'>;
  failRun(id: string, body: Body<'failRun'>, runToken?: string, opts?: CallOptions): Res<'failRun'>;
  claimRun(body?: Body<'claimRun'>, opts?: CallOptions): Res<'claimRun'>;
  renewClaim(id: string, body: Body<'renewClaim'>, opts?: CallOptions): Res<'renewClaim'>;
  completeClaim(id: string, body: Body<'completeClaim'>, opts?: CallOptions): Res<'completeClaim'>;
  skipClaim(id: string, body: Body<'skipClaim'>, opts?: CallOptions): Res<'skipClaim'>;

  /** Every result of a bulk batch, page by page. */
  iterateBulkResults(
    batchId: string,
    opts?: { pageSize?: number } & CallOptions,
  ): AsyncGenerator<BulkItemResult, void, undefined>;

  /**
   * `fetch` for the service's MCP endpoint (`{baseUrl}/api/mcp`) with this client's API key as bearer: what an
   * MCP client transport is handed, so the key never leaves the client. Any other address is refused.
   */
  mcpFetch(url: string | URL, init?: RequestInit): Promise<Response>;

  /** The keep-alive (or proxy) dispatcher, for raw requests such as upload PUTs. */
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly aliasUrl: string | null;
  close(): Promise<void>;
}

const NO_KEY_REMEDY =
  'run `postdesk login` (stores it in the OS keychain), or set POSTDESK_API_KEY_FILE to a private file holding it';

function fillPath(name: string, template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_m, key: string) => {
    const v = params?.[key];
    if (typeof v !== 'string' || v.length === 0) {
      throw new ValidationError([{ path: key, message: 'path parameter is required' }], name, 'path');
    }
    return encodeURIComponent(v);
  });
}

function queryString(query: unknown): string {
  if (query === null || typeof query !== 'object') return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** The typed client of every operation in OPERATIONS: validates, authenticates, retries per policy, parses. */
// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the transport, retry and clock); each method is short and named
export function createApiClient(opts: ApiClientOptions): ApiClient {
  const clock = opts.clock ?? createServiceClock();
  const transport: Transport = createTransport({ ...opts, clock });
  if (typeof opts.apiKey === 'string') registerSecret(opts.apiKey);

  async function apiKey(name: string): Promise<string> {
    const key = typeof opts.apiKey === 'function' ? await opts.apiKey() : opts.apiKey;
    if (!key) throw new CredentialMissingError(name, 'an API key', NO_KEY_REMEDY);
    registerSecret(key);
    return key;
  }

  async function authHeaders<N extends OperationName>(
    name: N,
    input: RequestInput<N>,
    body: unknown,
  ): Promise<Record<string, string>> {
    const op = OPERATIONS[name];
    const h: Record<string, string> = {};
    if (input.runToken) registerSecret(input.runToken);
    switch (op.credential) {
      case 'none':
        break;
      case 'apiKey':
        h.authorization = `Bearer ${await apiKey(name)}`;
        break;
      case 'runToken':
        if (!input.runToken) {
          throw new CredentialMissingError(
            name,
            'a run token',
            'start the run first; startRun returns run_token',
          );
        }
        h.authorization = `Bearer ${input.runToken}`;
        break;
      case 'runTokenOrApiKey':
        h.authorization = `Bearer ${input.runToken ?? (await apiKey(name))}`;
        break;
      case 'runTokenOrApiKey+executor': {
        if (!input.runToken) {
          const executorId = (body as { executor_id?: unknown } | undefined)?.executor_id;
          if (typeof executorId !== 'string' || !executorId) {
            throw new ValidationError(
              [
                {
                  path: 'executor_id',
                  message: 'required when no run token is given (API key + executor_id)',
                },
              ],
              name,
              'body',
            );
          }
        }
        h.authorization = `Bearer ${input.runToken ?? (await apiKey(name))}`;
        break;
      }
    }
    if (input.runnerKey) h['x-service-runner-key'] = await apiKey(name);
    return h;
  }

  async function send<N extends OperationName>(name: N, input: RequestInput<N>, raw: boolean) {
    const op = OPERATIONS[name];
    let body: unknown;
    if ('body' in op && op.body) {
      const parsed = op.body.safeParse(input.body ?? {});
      if (!parsed.success) throw ValidationError.fromZod(parsed.error, name, 'body');
      body = parsed.data;
      const claim = (body as { claim_token?: unknown }).claim_token;
      if (typeof claim === 'string') registerSecret(claim);
    }
    if ('query' in op && op.query && input.query !== undefined) {
      const parsed = op.query.safeParse(input.query);
      if (!parsed.success) throw ValidationError.fromZod(parsed.error, name, 'query');
    }
    const path = fillPath(name, op.path, input.params) + queryString(input.query);
    const headers = await authHeaders(name, input, body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (raw) headers.accept = 'text/markdown, text/plain, */*';
    return transport.send({
      operation: name,
      policy: op.retry,
      method: op.method,
      pathAndQuery: path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: input.signal,
    });
  }

  async function requestOp<N extends OperationName>(name: N, input: RequestInput<N> = {}): Res<N> {
    const res = await send(name, input, false);
    let json: unknown;
    try {
      json = res.text ? JSON.parse(res.text) : {};
    } catch {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        message: 'response is not JSON',
        operation: name,
      });
    }
    const parsed = OPERATIONS[name].response.safeParse(json);
    if (!parsed.success) {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        message: 'response does not match the contract',
        issues: parsed.error.issues.map(toFieldIssue),
        operation: name,
      });
    }
    const data = parsed.data as ResponseOf<N>;
    rememberTokens(data);
    return data;
  }

  const id = (v: string | { id: string }) => (typeof v === 'string' ? { id: v } : v);

  const client: ApiClient = {
    request: requestOp,
    listAccounts: (o) => requestOp('listAccounts', { ...o }),
    listPosts: (query, o) => requestOp('listPosts', { query, ...o }),
    createPost: (body, o) => requestOp('createPost', { body, ...o }),
    updatePost: (body, o) => requestOp('updatePost', { body, ...o }),
    deletePost: (v, o) => requestOp('deletePost', { body: id(v), ...o }),
    bulkCreate: (body, o) => requestOp('bulkCreate', { body, ...o }),
    bulkInspect: (query, o) => requestOp('bulkInspect', { query, ...o }),
    bulkUpdate: (body, o) => requestOp('bulkUpdate', { body, ...o }),
    reserveMedia: (body, o) => requestOp('reserveMedia', { body, ...o }),
    completeMedia: (body, o) => requestOp('completeMedia', { body, ...o }),
    listArticles: (query, o) => requestOp('listArticles', { query, ...o }),
    createArticle: (body, o) => requestOp('createArticle', { body, ...o }),
    deleteArticle: (v, o) => requestOp('deleteArticle', { body: id(v), ...o }),
    analytics: (query, o) => requestOp('analytics', { query, ...o }),
    listSkills: (o) => requestOp('listSkills', { ...o }),
    getSkill: (skillId, query, o) => requestOp('getSkill', { params: { id: skillId }, query, ...o }),
    async getSkillMarkdown(skillId, version, o) {
      const res = await send(
        'getSkill',
        { params: { id: skillId }, query: { version, format: 'markdown' }, ...o },
        true,
      );
      return res.text;
    },
    listAutomations: (runToken, o) => requestOp('listAutomations', { runToken, ...o }),
    registerExecutor: (body, o) => requestOp('registerExecutor', { body, ...o }),
    syncAutomations: (executorId, o) =>
      requestOp('syncAutomations', { query: { executor_id: executorId }, ...o }),
    ackAutomation: (aid, body, o) => requestOp('ackAutomation', { params: { id: aid }, body, ...o }),
    startRun: (aid, body, o) => requestOp('startRun', { params: { id: aid }, body, ...o }),
    getRun: (rid, executorId, o) =>
      requestOp('getRun', { params: { id: rid }, query: { executor_id: executorId }, ...o }),
    runEvent: (rid, body, runToken, o) =>
      requestOp('runEvent', { params: { id: rid }, body, runToken, ...o }),
    reserveRunMedia: (rid, runToken, body, o) =>
      requestOp('reserveRunMedia', { params: { id: rid }, body, runToken, ...o }),
    completeRunMedia: (rid, runToken, body, o) =>
      requestOp('completeRunMedia', { params: { id: rid }, body, runToken, ...o }),
    directUpload: (rid, runToken, body, options) =>
      requestOp('directUpload', {
        params: { id: rid },
        body,
        runToken,
        runnerKey: options?.youtube === true,
        signal: options?.signal,
      }),
    directUploadStatus: (rid, runToken, body, o) =>
      requestOp('directUploadStatus', { params: { id: rid }, body, runToken, ...o }),
    completeLocal: (rid, body, runToken, o) =>
      requestOp('completeLocal', { params: { id: rid }, body, runToken, ...o }),
    failRun: (rid, body, runToken, o) => requestOp('failRun', { params: { id: rid }, body, runToken, ...o }),
    claimRun: (body, o) => requestOp('claimRun', { body: body ?? {}, ...o }),
    renewClaim: (rid, body, o) => requestOp('renewClaim', { params: { id: rid }, body, ...o }),
    completeClaim: (rid, body, o) => requestOp('completeClaim', { params: { id: rid }, body, ...o }),
    skipClaim: (rid, body, o) => requestOp('skipClaim', { params: { id: rid }, body, ...o }),

    async *iterateBulkResults(batchId, o) {
      const limit = o?.pageSize ?? LIMITS.pageSizeMax;
      let offset = 0;
      for (;;) {
        const page = await requestOp('bulkInspect', {
          query: { batch_id: batchId, offset, limit },
          signal: o?.signal,
        });
        yield* page.items;
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.total) return;
      }
    },

    async mcpFetch(url, init) {
      const endpoint = `${transport.baseUrl.replace(/\/+$/, '')}/api/mcp`;
      if (new URL(String(url)).href !== new URL(endpoint).href) {
        throw new ValidationError(
          [{ path: 'url', message: `only ${endpoint} is reachable this way` }],
          'mcp',
          'path',
        );
      }
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await apiKey('mcp')}`);
      return fetch(endpoint, { ...init, headers });
    },

    clock,
    dispatcher: transport.dispatcher,
    baseUrl: transport.baseUrl,
    aliasUrl: transport.aliasUrl,
    close: () => transport.close(),
  };
  return client;
}

/** Tokens the service hands out become secrets the moment they arrive. */
function rememberTokens(data: unknown): void {
  if (data === null || typeof data !== 'object') return;
  const d = data as { run_token?: unknown; run?: { claim_token?: unknown } | null };
  if (typeof d.run_token === 'string') registerSecret(d.run_token);
  if (d.run && typeof d.run.claim_token === 'string') registerSecret(d.run.claim_token);
}
