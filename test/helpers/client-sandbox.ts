/**
 * A real sandbox, a real API client for it (with key A and quick retries, so a test that meets a
 * failure is not slowed by back-off), and a fresh temporary folder for the test's files and stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import { TEST_KEYS, startTestSandbox, type TestSandbox } from './sandbox';

export interface ClientSandbox {
  readonly sb: TestSandbox;
  readonly client: ApiClient;
  readonly dir: string;
  close(): Promise<void>;
}

/** `prefix` names the temporary folder, so a leftover one says which test made it. */
export async function startClientSandbox(prefix: string): Promise<ClientSandbox> {
  const sb = await startTestSandbox();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const client = createApiClient({
    baseUrl: sb.url,
    apiKey: TEST_KEYS.a,
    retry: { retries: 1, minTimeoutMs: 5, maxTimeoutMs: 10 },
  });
  return {
    sb,
    client,
    dir,
    async close() {
      await client.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
