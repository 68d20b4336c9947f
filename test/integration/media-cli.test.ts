import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBulkCommand } from '../../src-main/cli/commands/bulk';
import { registerMediaCommand } from '../../src-main/cli/commands/media';
import { registerUploadCommand } from '../../src-main/cli/commands/upload';
import { createDeps } from '../../src-main/cli/context';
import { exitCodeFor } from '../../src-main/cli/exit-codes';
import { mediaFixtures } from '../helpers/media-fixtures';
import { IDS, TEST_KEYS, startTestSandbox } from '../helpers/sandbox';
import type { TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pd-media-cli-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `postdesk <args>` with the upload, media and bulk commands, the CLI's real deps, and captured output. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (b: Buffer) => (out += b.toString()));
  stderr.on('data', (b: Buffer) => (err += b.toString()));
  const env = {
    POSTDESK_DATA_DIR: join(dir, 'data'),
    POSTDESK_API_KEY: TEST_KEYS.a,
    POSTDESK_BASE_URL: sb.url,
    NO_COLOR: '1',
  };
  const { deps, state } = createDeps({ stdout, stderr, stdin: process.stdin, env });
  const program = new Command('postdesk')
    .addOption(new Option('--json'))
    .addOption(new Option('--base-url <url>'))
    .addOption(new Option('--sandbox'))
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) });
  registerUploadCommand(program, deps);
  registerMediaCommand(program, deps);
  registerBulkCommand(program, deps);
  let code: number;
  try {
    await program.parseAsync(args, { from: 'user' });
    code = state.exitCode;
  } catch (e) {
    code = exitCodeFor(e);
    err += String(e);
  } finally {
    await state.close();
  }
  return { code, stdout: out, stderr: err };
}

describe('postdesk media', () => {
  it('check --json reports each file and exits 2 when one breaks a limit', async () => {
    const fx = mediaFixtures();
    const r = await cli('--json', 'media', 'check', fx.mp4, fx.oversizeMp4, fx.pngNamedMp4);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as {
      ok: boolean;
      files: { ok: boolean; content_type: string | null; problems: { message: string }[] }[];
    };
    expect(doc.ok).toBe(false);
    expect(doc.files.map((f) => [f.ok, f.content_type])).toEqual([
      [true, 'video/mp4'],
      [false, null],
      [true, 'image/png'],
    ]);
    expect(doc.files[1]?.problems[0]?.message).toContain(
      'MP4 uploads are limited to 200 MiB (209715200 bytes); this file is 230.5 MiB',
    );
  });

  it('check --direct applies the 64 MiB rule; human output names the problem', async () => {
    const r = await cli('media', 'check', '--direct', mediaFixtures().overDirectMp4);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      'error: over-direct.mp4: direct uploads are limited to 64 MiB (67108864 bytes); this file is 65 MiB',
    );
  });

  it('convert --max-size writes an MP4 within the limit', async () => {
    const out = join(dir, 'fit.mp4');
    const r = await cli(
      '--json',
      'media',
      'convert',
      mediaFixtures().mp4Large,
      '--out',
      out,
      '--max-size',
      '100000',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ output: out, mode: 'compress' });
    expect(statSync(out).size).toBeLessThanOrEqual(100_000);
    const bad = await cli('media', 'convert', mediaFixtures().mp4Large, '--max-size', 'lots');
    expect(bad.code).toBe(2);
  });
});

describe('postdesk upload', () => {
  it('--json prints one asset per line; a refused file sets the exit code', async () => {
    const fx = mediaFixtures();
    const r = await cli('--json', 'upload', fx.jpeg, fx.webp, fx.gif);
    expect(r.code).toBe(2);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ file: fx.jpeg, mime_type: 'image/jpeg', already_uploaded: false });
    expect(lines[1]).toMatchObject({ file: fx.webp, mime_type: 'image/webp' });
    expect(lines[2]).toMatchObject({ file: fx.gif, error: { kind: 'check' } });
    expect(await sb.control.state()).toMatchObject({ media: { uploaded: 2, pending: 0 } });
  });
});

describe('postdesk bulk', () => {
  it('import --dry-run shows the plan, import sends it, status reads it back', async () => {
    await sb.control.reset();
    // Bytes no earlier test uploaded (a JPEG ignores what follows its end marker).
    writeFileSync(
      join(dir, 'pic.jpg'),
      Buffer.concat([readFileSync(mediaFixtures().jpeg), Buffer.from('bulk cli test')]),
    );
    const csv = join(dir, 'cli.csv');
    const rows = ['caption,media,targets,scheduled_at'];
    for (let i = 1; i <= 120; i++)
      rows.push(`p${i},pic.jpg,x:${IDS.accounts.x},2031-02-01T10:${String(i % 60).padStart(2, '0')}:00Z`);
    writeFileSync(csv, rows.join('\n'));

    const dry = await cli('bulk', 'import', csv, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('#1: 100 (rows 1-100), #2: 20 (rows 101-120)');
    expect(dry.stdout).toContain('1 to upload');
    expect(dry.stdout).toContain('dry run: nothing was uploaded or sent');
    expect(await sb.control.state()).toMatchObject({ posts: 0 });

    const run = await cli('--json', 'bulk', 'import', csv);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      state: string;
      created: number;
      batches: { batch_id: string }[];
    };
    expect(report).toMatchObject({ state: 'done', created: 120 });
    expect(await sb.control.state()).toMatchObject({
      posts: 120,
      batches: 2,
      deliveries: { scheduled: 120 },
    });

    const status = await cli('--json', 'bulk', 'status', report.batches[1]!.batch_id);
    expect(JSON.parse(status.stdout)).toMatchObject({ total: 20, created: 20, failed: 0 });
  });

  it('import of a file with bad rows lists them and exits 2', async () => {
    const csv = join(dir, 'bad.csv');
    writeFileSync(
      csv,
      `caption,targets,action\nok,x:${IDS.accounts.x},draft\nnope,x:${IDS.accounts.x},publish\n`,
    );
    const r = await cli('bulk', 'import', csv);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('row 2 (line 3), action: bulk cannot publish immediately');
  });
});
