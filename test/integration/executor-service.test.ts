/**
 * `postdesk executor service install|status|uninstall` on Linux: the unit is written to the user's unit
 * directory (XDG_CONFIG_HOME), passes `systemd-analyze verify` without a warning, holds no key, and its
 * command line, run as systemd would run it, registers an executor with the key from the key file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src-main/core/executor/journal';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { needsTool } from '../helpers/system-tools';
import { cli, startHarness, type Harness } from './executor-harness';

let dir = '';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

const analyze =
  process.platform === 'linux'
    ? needsTool('systemd-analyze', 'the unit is checked by systemd-analyze verify')
    : {};

/** A unit file's ExecStart words, unquoted as systemd reads them (%% and $$ included). */
function execWords(unit: string): string[] {
  const line = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of line.matchAll(re)) {
    const w = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] as string);
    words.push(w.replace(/%%/g, '%').replace(/\$\$/g, '$'));
  }
  return words;
}

function machine() {
  dir = mkdtempSync(join(tmpdir(), 'executor-service-'));
  const home = join(dir, 'home');
  const config = join(dir, 'config');
  const data = join(dir, 'data');
  mkdirSync(home, { recursive: true });
  const keyFile = join(home, 'postdesk-key');
  return { home, config, data, keyFile };
}

describe.skipIf(process.platform !== 'linux')('postdesk executor service (systemd user unit)', () => {
  it(
    'install --no-start writes a unit that systemd-analyze accepts, with the key file path but never the key',
    analyze,
    async () => {
      h = await startHarness();
      const m = machine();
      writeFileSync(m.keyFile, `${h.sb.apiKey}\n`, { mode: 0o600 });
      const env = { HOME: m.home, XDG_CONFIG_HOME: m.config, POSTDESK_API_KEY_FILE: '' };
      const res = await cli(
        m.data,
        [
          '--json',
          '--base-url',
          h.sb.url,
          'executor',
          '--name',
          'Render box 1',
          '--stop-grace',
          '40',
          'service',
          'install',
          '--no-start',
          '--key-file',
          m.keyFile,
        ],
        env,
      );
      expect(res.code, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout) as { location: string; started: boolean; environment: string[] };
      const unitFile = join(m.config, 'systemd', 'user', 'postdesk-executor.service');
      expect(out).toMatchObject({ location: unitFile, started: false });
      const unit = readFileSync(unitFile, 'utf8');
      expect(statSync(unitFile).mode & 0o777).toBe(0o600);
      expect(unit).not.toContain(h.sb.apiKey);
      expect(unit).toContain(`Environment=POSTDESK_API_KEY_FILE=${m.keyFile}`);
      expect(unit).toContain(`Environment=POSTDESK_DATA_DIR=${m.data}`);
      expect(unit).toContain('TimeoutStopSec=55');
      expect(unit).toContain('Restart=on-failure');
      expect(execWords(unit).slice(2)).toEqual([
        '--base-url',
        h.sb.url,
        'executor',
        '--name',
        'Render box 1',
        '--stop-grace',
        '40',
      ]);

      if (process.platform === 'linux') {
        const runtime = join(dir, 'runtime');
        mkdirSync(runtime, { mode: 0o700 });
        const r = spawnSync('systemd-analyze', ['--user', 'verify', unitFile], {
          env: { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: m.home, XDG_CONFIG_HOME: m.config },
          encoding: 'utf8',
        });
        // A unit systemd only half understands still exits 0: every warning counts.
        expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      }

      // The unit's own command line and environment, as systemd would start it, for one pass.
      const words = execWords(unit);
      const unitEnv = Object.fromEntries(
        [...unit.matchAll(/^Environment=(.*)$/gm)].map((l) => {
          const [k, ...v] = (l[1] as string).replace(/^"|"$/g, '').split('=');
          return [k as string, v.join('=')];
        }),
      );
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(words[0] as string, [...words.slice(1), '--once'], {
          cwd: m.home,
          env: { ...unitEnv, HOME: m.home },
          stdio: 'ignore',
        });
        child.once('exit', resolve);
      });
      expect(code).toBe(0);
      // It registered with the key from the file, under the name the unit gave it.
      expect(((await h.sb.control.state()) as unknown as { executors: number }).executors).toBe(1);
      const store = openStore(storeFile(m.data));
      try {
        expect(new Journal(store, h.sb.url).identity()?.name).toBe('Render box 1');
      } finally {
        store.close();
      }

      const status = await cli(m.data, ['--json', 'executor', 'service', 'status'], env);
      expect(JSON.parse(status.stdout)).toMatchObject({ installed: true, location: unitFile });

      const removed = await cli(m.data, ['--json', 'executor', 'service', 'uninstall', '--no-stop'], env);
      expect(JSON.parse(removed.stdout)).toEqual({ location: unitFile, removed: true });
      expect(existsSync(unitFile)).toBe(false);
    },
  );

  it('install refuses a key file others can read, before writing anything', async () => {
    const m = machine();
    writeFileSync(m.keyFile, 'pd_test_key\n', { mode: 0o644 });
    const res = await cli(m.data, ['executor', 'service', 'install', '--no-start', '--key-file', m.keyFile], {
      HOME: m.home,
      XDG_CONFIG_HOME: m.config,
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/chmod 600/);
    expect(existsSync(join(m.config, 'systemd'))).toBe(false);
  });
});
