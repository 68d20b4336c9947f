import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src-main/core/media/tools';

/** `postdesk doctor`, the real CLI process: which ffmpeg and ffprobe it uses, and the old bundled build's warning. */

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
const dataDir = mkdtempSync(join(tmpdir(), 'postdesk-doctor-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function doctor(path: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'doctor', ...args], {
    env: { PATH: path, HOME: dataDir, POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// Node's own folder only: no system ffmpeg, so the bundled ones are what is found.
const nodeOnly = dirname(process.execPath);

describe('postdesk doctor', () => {
  it('prefers the system ffmpeg 5.1 or newer, and says its path, source and version', () => {
    const system = findOnPath('ffmpeg');
    if (!system && process.env.CI !== 'true') return; // a machine without a system ffmpeg
    expect(system, 'CI installs ffmpeg from apt').toBeTruthy();
    const r = doctor(`${nodeOnly}:${dirname(system!)}`, '--json');
    expect(r.code, r.out).toBe(0);
    const report = JSON.parse(r.out) as {
      media_tools: { ffmpeg: Record<string, unknown> };
      warnings: string[];
    };
    expect(report.media_tools.ffmpeg).toMatchObject({
      path: system,
      source: 'path',
      recent: true,
      note: null,
    });
    expect(report.media_tools.ffmpeg.version).toMatch(/^\d+\.\d+/);
  });

  it('warns when only the bundled 2018 ffmpeg is there', () => {
    const r = doctor(nodeOnly);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^ffmpeg\s+\S+@ffmpeg-installer\S+ffmpeg \(bundled with Postdesk\), version N-/m);
    expect(r.out).toMatch(/warning: ffmpeg: only the ffmpeg bundled with Postdesk was found, an old build/);
  });
});
