/**
 * Starts a real sandbox on a free port for a test and drives it over HTTP: the API through `api()`,
 * the control API through `control`. Every test that needs the service uses this.
 */
import { startSandbox } from '../../src-sandbox/app';
import type { Fixture } from '../../src-sandbox/fixture';
import type { Platform } from '../../src-shared/api';

export type { Fixture };

// Tests read loosely typed JSON; each assertion checks the shape it relies on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** Loosely typed JSON for test assertions (each assertion checks the shape it relies on). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;
/** The JSON body of a fetch Response, loosely typed. */
export const jsonOf = async (res: Response | Promise<Response>): Promise<Loose> =>
  (await (await res).json()) as Loose;

export interface SandboxControl {
  reset(fixture?: Fixture): Promise<void>;
  clock(): Promise<string>;
  advance(ms: number): Promise<string>;
  setNow(iso: string): Promise<string>;
  faults(settings: Record<string, unknown>): Promise<Record<string, unknown>>;
  state(): Promise<SandboxState>;
  putAutomation(id: string, body: Record<string, unknown>): Promise<ApiResponse>;
  /** How an account's publishes go from now on (`publish_failures`, `token_expired`). */
  patchAccount(id: string, patch: { publish_failures?: number; token_expired?: boolean }): Promise<unknown>;
}

export interface SandboxState {
  posts: number;
  deliveries: Record<string, number>;
  batches: number;
  bulk_items: number;
  media: { pending: number; uploaded: number };
  articles: Record<string, number>;
  executors: number;
  runs: Record<string, number>;
}

export interface TestSandbox {
  url: string;
  /** The first key of the fixture's first owner (TEST_KEYS.a with demoFixture()). */
  apiKey: string;
  /** A JSON request; `key: null` sends no Authorization header. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  api<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  control: SandboxControl;
  close(): Promise<void>;
}

/** Fixed ids of demoFixture(): owner a holds one account per platform, owner b one x account. */
export const IDS = {
  ownerA: 'owner-a',
  ownerB: 'owner-b',
  accounts: {
    tiktok: '11111111-1111-4111-8111-000000000001',
    instagram: '11111111-1111-4111-8111-000000000002',
    youtube: '11111111-1111-4111-8111-000000000003',
    linkedin: '11111111-1111-4111-8111-000000000004',
    x: '11111111-1111-4111-8111-000000000005',
  } satisfies Record<Platform, string>,
  accountB: '22222222-2222-4222-8222-000000000001',
  automation: '33333333-3333-4333-8333-000000000001',
  executor: 'exec-test-1',
} as const;

export const TEST_KEYS = {
  a: 'pd_test_owner_a_valid_key_000000001',
  aNoScope: 'pd_test_owner_a_noscope_key_00000002',
  aExpired: 'pd_test_owner_a_expired_key_0000003',
  aRevoked: 'pd_test_owner_a_revoked_key_0000004',
  b: 'pd_test_owner_b_valid_key_000000001',
} as const;

export const FIXTURE_NOW = '2030-01-01T12:00:00.000Z';

export interface DemoFixtureOptions {
  /** The virtual clock's start; `null` follows real time. Default FIXTURE_NOW. */
  now?: string | null;
  /** Simulated publish failures per platform of owner a's accounts. */
  publishFailures?: Partial<Record<Platform, number>>;
  /** Owner a's executors and automations (the agent fixture parts); default one executor, one automation. */
  executors?: unknown[];
  automations?: unknown[];
  skills?: Fixture['skills'];
  /** Owner a's simulated storage already in use (media quota tests). */
  storageUsedBytes?: number;
  storageUsedObjects?: number;
}

/** A test fixture with two owners (isolation), keys in every state (auth) and a fixed virtual clock. */
export function demoFixture(opts: DemoFixtureOptions = {}): Fixture {
  const now = opts.now === undefined ? FIXTURE_NOW : opts.now;
  const base = Date.parse(now ?? new Date().toISOString());
  const at = (minutesAgo: number) => new Date(base - minutesAgo * 60_000).toISOString();
  const platforms = Object.keys(IDS.accounts) as Platform[];
  return {
    ...(now ? { now } : {}),
    owners: [
      {
        id: IDS.ownerA,
        storage_used_bytes: opts.storageUsedBytes ?? 0,
        storage_used_objects: opts.storageUsedObjects ?? 0,
        api_keys: [
          { key: TEST_KEYS.a, scopes: ['media:write'] },
          { key: TEST_KEYS.aNoScope, scopes: [] },
          { key: TEST_KEYS.aExpired, scopes: ['media:write'], expires_at: at(1) },
          { key: TEST_KEYS.aRevoked, scopes: ['media:write'], revoked: true },
        ],
        accounts: platforms.map((platform, i) => ({
          id: IDS.accounts[platform],
          platform,
          name: `Test ${platform}`,
          created_at: at(100 - i),
          publish_failures: opts.publishFailures?.[platform] ?? 0,
        })),
        executors: opts.executors ?? [{ id: IDS.executor, name: 'Test executor', agent_type: 'test-agent' }],
        automations: opts.automations ?? [
          {
            id: IDS.automation,
            name: 'Test automation',
            status: 'active',
            execution_mode: 'draft',
            queue: 'local',
            schedule: { cron: '0 * * * *', timezone: 'UTC' },
            instructions: 'Post a test clip.',
            targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
          },
        ],
      },
      {
        id: IDS.ownerB,
        api_keys: [{ key: TEST_KEYS.b, scopes: ['media:write'] }],
        accounts: [{ id: IDS.accountB, platform: 'x', name: 'Owner B on x', created_at: at(50) }],
      },
    ],
    skills: opts.skills ?? [
      {
        id: 'test-skill',
        name: 'Test skill',
        description: 'A skill for tests.',
        versions: [
          { version: '1.0.0', markdown: '# Test skill v1\n' },
          { version: '2.0.0', markdown: '# Test skill v2\n' },
        ],
      },
    ],
  };
}

async function request<T>(
  url: string,
  method: string,
  path: string,
  opts: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  defaultKey: string | null,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? defaultKey : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) body = JSON.parse(text);
  return { status: res.status, body: body as T, headers: res.headers, text };
}

/** Starts a sandbox loaded with `fixture` (default demoFixture()) on 127.0.0.1, port 0. */
export async function startTestSandbox(fixture: Fixture = demoFixture()): Promise<TestSandbox> {
  const running = await startSandbox({ port: 0, fixture, quiet: true });
  const url = running.url;
  const firstKey = fixture.owners?.[0]?.api_keys?.[0]?.key ?? '';
  const ctl = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await request<T>(url, method, path, { body, key: null }, null);
    if (res.status !== 200) throw new Error(`control ${method} ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  };
  const control: SandboxControl = {
    reset: async (f = fixture) => void (await ctl('POST', '/_sandbox/reset', f)),
    clock: async () => (await ctl<{ now: string }>('GET', '/_sandbox/clock')).now,
    advance: async (ms) => (await ctl<{ now: string }>('POST', '/_sandbox/clock', { advance_ms: ms })).now,
    setNow: async (iso) => (await ctl<{ now: string }>('POST', '/_sandbox/clock', { now: iso })).now,
    faults: (settings) => ctl('POST', '/_sandbox/faults', settings),
    state: () => ctl('GET', '/_sandbox/state'),
    putAutomation: (id, body) =>
      request(url, 'PUT', `/_sandbox/automations/${id}`, { body, key: null }, null),
    patchAccount: (id, patch) => ctl('PATCH', `/_sandbox/accounts/${id}`, patch),
  };
  return {
    url,
    apiKey: firstKey,
    api: (method, path, opts = {}) => request(url, method, path, opts, firstKey),
    control,
    close: () => running.close(),
  };
}
