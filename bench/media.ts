/**
 * Media: hashing a 200 MiB file (SHA-256 + MD5 in one read) beside `sha256sum` and `md5sum` on the same file, and an
 * upload to an in-process sandbox beside `curl -T` of the same file to a fresh upload address, with the peak RSS
 * growth of our upload measured in a child process. Everything in the same run, in a temp dir removed afterwards.
 */
import { execFile, spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox } from '../src-sandbox/app';
import { demoFixture } from '../src-sandbox/demo-fixture';
import { createApiClient } from '../src-main/core/api/client';
import { hashFile } from '../src-main/core/media/hash';
import type { Digests } from '../src-main/core/media/hash';
import { createUploader } from '../src-main/core/media/upload';
import { openStore } from '../src-main/core/store/store';
import { writeTinyClip } from './tiny-clip';
import { judge } from './goals';
import { median, timeProcess } from './measure';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const SIZE = 200 * MiB;
const ROUNDS = 3;

/**
 * A real 1-second MP4 followed by a `free` box (padding every reader skips) filled with random bytes up to 200 MiB:
 * a valid MP4 for the pre-upload check and the sandbox's probe, and incompressible data for the transfer.
 */
async function writeBenchFile(dir: string, path: string): Promise<void> {
  const clip = join(dir, 'clip.mp4');
  await writeTinyClip(clip);
  const head = readFileSync(clip);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  const box = Buffer.alloc(8);
  box.writeUInt32BE(SIZE - head.length, 0);
  box.write('free', 4, 'latin1');
  writeSync(fd, box);
  const chunk = Buffer.alloc(8 * MiB);
  for (let left = SIZE - head.length - 8; left > 0; left -= chunk.length) {
    randomFillSync(chunk);
    writeSync(fd, chunk, 0, Math.min(chunk.length, left));
  }
  closeSync(fd);
}

/** A command's wall time; like execFile, a failing command is an error, not a figure. */
async function timeCommand(cmd: string, args: string[]): Promise<number> {
  const r = await timeProcess(cmd, args);
  if (r.code !== 0) throw new Error(`${cmd} exited ${r.code}: ${r.stderr}`);
  return r.ms;
}

async function benchHash(file: string): Promise<void> {
  // One untimed read each, so every contender starts with the file in the page cache.
  await timeCommand('sha256sum', [file]);
  await hashFile(file);
  const sha: number[] = [];
  const md5: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    sha.push(await timeCommand('sha256sum', [file]));
    md5.push(await timeCommand('md5sum', [file]));
    const t = performance.now();
    await hashFile(file);
    ours.push(performance.now() - t);
  }
  const s = median(sha);
  const rows: [string, number][] = [
    ['sha256sum (baseline)', s],
    ['md5sum', median(md5)],
    ['postdesk hashFile: sha256 + md5', median(ours)],
  ];
  console.log(`hashing ${SIZE / MiB} MiB, median of ${ROUNDS}:`);
  for (const [name, ms] of rows) {
    console.log(
      `  ${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${((SIZE / MiB / ms) * 1000).toFixed(0).padStart(5)} MiB/s  ${(ms / s).toFixed(2)}x sha256sum`,
    );
  }
  const ratio = median(ours) / s;
  console.log(
    `  both digests / sha256sum alone: ${ratio.toFixed(2)}x (goal <= 1.15x) ${judge('media.hash_vs_sha256sum', ratio)}`,
  );
}

interface ChildReport {
  putMs: number;
  totalMs: number;
  rssBefore: number;
  maxRss: number;
  assetId: string;
}

/** The child: uploads the file once and reports the PUT time and its RSS before and at peak. */
async function uploadChild(): Promise<void> {
  const env = process.env;
  const api = createApiClient({ baseUrl: env.BENCH_URL as string, apiKey: env.BENCH_KEY as string });
  let putMs = 0;
  const store = openStore(env.BENCH_DB as string);
  const uploader = createUploader({
    api,
    store,
    onEvent: (e) => {
      if (e.type === 'uploaded') putMs = e.ms;
    },
  });
  // Make everything lazy load before the baseline is taken.
  await api.listAccounts();
  const rssBefore = process.memoryUsage.rss();
  const t = performance.now();
  const r = await uploader.upload(env.BENCH_FILE as string);
  const report: ChildReport = {
    putMs,
    totalMs: performance.now() - t,
    rssBefore,
    maxRss: process.resourceUsage().maxRSS * 1024,
    assetId: r.assetId,
  };
  console.log(JSON.stringify(report));
  store.close();
  await api.close();
}

async function curlPut(api: ReturnType<typeof createApiClient>, file: string, d: Digests): Promise<number> {
  // A fresh reservation of these bytes, then exactly the PUT our uploader makes: same address, same headers.
  const res = await api.reserveMedia({
    content_type: 'video/mp4',
    content_length: d.size,
    content_sha256: d.sha256,
    content_md5: d.md5,
  });
  const headers = Object.entries(res.upload_headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const t = performance.now();
  const { stdout } = await run('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-T',
    file,
    ...headers,
    res.upload_url as string,
  ]);
  const ms = performance.now() - t;
  if (stdout.trim() !== '200') throw new Error(`curl PUT answered ${stdout}`);
  return ms;
}

async function childUpload(
  url: string,
  key: string,
  file: string,
  dir: string,
  round: number,
): Promise<ChildReport> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--upload-child'],
    {
      env: {
        ...process.env,
        BENCH_URL: url,
        BENCH_KEY: key,
        BENCH_FILE: file,
        BENCH_DB: join(dir, `child-${round}.db`),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`the upload child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ChildReport;
}

async function benchUpload(dir: string, file: string): Promise<void> {
  const sandbox = await startSandbox({ port: 0, quiet: true, dataDir: join(dir, 'sandbox') });
  try {
    const key = sandbox.apiKey as string;
    const api = createApiClient({ baseUrl: sandbox.url, apiKey: key });
    const digests = await hashFile(file);
    const curl: number[] = [];
    const reports: ChildReport[] = [];
    // Alternating rounds on a freshly reset sandbox, so neither side gets a quieter machine or a warmer server.
    for (let round = 0; round < ROUNDS; round++) {
      await resetSandbox(sandbox.url);
      curl.push(await curlPut(api, file, digests));
      await resetSandbox(sandbox.url);
      reports.push(await childUpload(sandbox.url, key, file, dir, round));
    }
    await api.close();

    const mibs = (ms: number) => (SIZE / MiB / ms) * 1000;
    const curlMs = median(curl);
    const putMs = median(reports.map((r) => r.putMs));
    const growth = Math.max(...reports.map((r) => r.maxRss - r.rssBefore)) / MiB;
    console.log(`upload of ${SIZE / MiB} MiB to the in-process sandbox (loopback), median of ${ROUNDS}:`);
    console.log(
      `  curl -T (baseline)                 ${curlMs.toFixed(0).padStart(6)} ms  ${mibs(curlMs).toFixed(0).padStart(5)} MiB/s`,
    );
    console.log(
      `  postdesk PUT (streamed from disk)  ${putMs.toFixed(0).padStart(6)} ms  ${mibs(putMs).toFixed(0).padStart(5)} MiB/s`,
    );
    console.log(
      `  postdesk whole upload (check, hash, reserve, PUT, complete): ${median(reports.map((r) => r.totalMs)).toFixed(0)} ms`,
    );
    const ratio = curlMs / putMs;
    console.log(
      `  throughput vs curl: ${ratio.toFixed(2)}x (goal >= 0.9x) ${judge('media.upload_vs_curl', ratio)}`,
    );
    console.log(
      `  peak RSS growth of the upload process (worst round): ${growth.toFixed(1)} MiB (goal < 64 MiB) ${judge('media.upload_rss_growth', growth)}`,
    );
  } finally {
    await sandbox.close();
  }
}

async function resetSandbox(url: string): Promise<void> {
  const res = await fetch(`${url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(demoFixture()),
  });
  if (res.status !== 200) throw new Error(`sandbox reset answered ${res.status}`);
}

export async function benchMedia(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-bench-media-'));
  try {
    const file = join(dir, 'bench.bin');
    await writeBenchFile(dir, file);
    await benchHash(file);
    await benchUpload(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--upload-child')) await uploadChild();
