import { dirname } from 'node:path';
import { z } from 'zod';
import { registerSecret } from './api/redact';
import { isProcessAlive } from './common/process-alive';
import { sandboxDataDir, sandboxRegistryFile } from './paths';
import {
  ensurePrivateDirSync,
  pathExistsSync,
  readTextFileSync,
  removePathSync,
  writePrivateFileSync,
} from './files';

/** What src-sandbox/app.ts's `startSandbox` gives back; core takes the function as a parameter and never imports it. */
export interface StartedSandbox {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}
export type StartSandboxFn = (opts: {
  port?: number;
  host?: string;
  dataDir?: string;
  quiet?: boolean;
}) => Promise<StartedSandbox>;

export interface SandboxLink {
  readonly url: string;
  readonly apiKey: string;
  readonly pid: number;
  /** True when another process runs it and we only talk to it. */
  readonly reused: boolean;
  close(): Promise<void>;
}

const Registry = z.object({ url: z.url(), pid: z.number().int(), apiKey: z.string().min(1) });

async function answers(url: string): Promise<boolean> {
  try {
    // Only `--sandbox` asks: undici is not loaded for every command that reads the services (an idle executor).
    const { request } = await import('undici');
    const res = await request(`${url}/_sandbox/clock`, { signal: AbortSignal.timeout(1_500) });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** The sandbox registered for this data directory, if its process is alive and it answers. */
export async function findRunningSandbox(dataDir: string): Promise<Omit<SandboxLink, 'close'> | null> {
  const file = sandboxRegistryFile(dataDir);
  if (!pathExistsSync(file)) return null;
  let reg: z.infer<typeof Registry>;
  try {
    reg = Registry.parse(JSON.parse(readTextFileSync(file)));
  } catch {
    return null;
  }
  if (!isProcessAlive(reg.pid) || !(await answers(reg.url))) return null;
  registerSecret(reg.apiKey);
  return { url: reg.url, apiKey: reg.apiKey, pid: reg.pid, reused: reg.pid !== process.pid };
}

/**
 * `--sandbox`: reuse the sandbox another Postdesk process runs for this data directory, or start one in this
 * process with its data in `<dataDir>/sandbox`, so state lasts from one command to the next.
 * The registry holds the sandbox's demo key: a local, offline key, never a real one.
 */
export async function connectSandbox(dataDir: string, start: StartSandboxFn): Promise<SandboxLink> {
  const running = await findRunningSandbox(dataDir);
  if (running) return { ...running, close: async () => undefined };
  const started = await start({ port: 0, host: '127.0.0.1', dataDir: sandboxDataDir(dataDir), quiet: true });
  registerSecret(started.apiKey);
  const file = sandboxRegistryFile(dataDir);
  ensurePrivateDirSync(dirname(file));
  writePrivateFileSync(file, JSON.stringify({ url: started.url, pid: process.pid, apiKey: started.apiKey }));
  return {
    url: started.url,
    apiKey: started.apiKey,
    pid: process.pid,
    reused: false,
    async close() {
      try {
        const reg = Registry.safeParse(JSON.parse(readTextFileSync(file)));
        if (reg.success && reg.data.pid === process.pid && reg.data.url === started.url) removePathSync(file);
      } catch {
        // Already gone.
      }
      await started.close();
    },
  };
}
