import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSettings, updateSettings } from '../../../../src-main/core/config/settings';
import { dataDir } from '../../../../src-main/core/paths';
import { MigrationError, openStore, type Store } from '../../../../src-main/core/store/store';

let dir: string;
const opened: Store[] = [];
const open = (name = 'postdesk.db') => {
  const s = openStore(join(dir, name));
  opened.push(s);
  return s;
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-store-'));
});
afterEach(() => {
  opened.splice(0).forEach((s) => s.close());
  rmSync(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('creates the file in WAL mode with a busy timeout', () => {
    const s = open('nested/dir/x.db');
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(s.version('settings')).toBe(1);
  });

  it('runs each namespace’s migrations once, in order, and remembers them across opens', () => {
    const log: number[] = [];
    const migrations = [
      { version: 2, up: (db: Store['db']) => (log.push(2), db.exec('ALTER TABLE things ADD COLUMN b TEXT')) },
      { version: 1, up: 'CREATE TABLE things (a TEXT); CREATE INDEX things_a ON things (a);' },
    ];
    const s = open();
    expect(s.migrate('media', [migrations[1]!])).toBe(1);
    expect(s.migrate('media', migrations)).toBe(2);
    expect(s.migrate('media', migrations)).toBe(2);
    s.db.prepare('INSERT INTO things (a, b) VALUES (?, ?)').run('x', 'y');
    s.close();

    const again = open();
    expect(again.migrate('media', migrations)).toBe(2);
    expect(log).toEqual([2]);
    expect(again.db.prepare('SELECT a, b FROM things').all()).toEqual([{ a: 'x', b: 'y' }]);
    expect(again.version('executor')).toBe(0);
  });

  it('a failing migration leaves the namespace at the last good version', () => {
    const s = open();
    const bad = [
      { version: 1, up: 'CREATE TABLE ok1 (a TEXT)' },
      { version: 2, up: 'CREATE TABLE ok2 (a TEXT); THIS IS NOT SQL' },
    ];
    expect(() => s.migrate('bulk', bad)).toThrow();
    expect(s.version('bulk')).toBe(1);
    const tables = s.db
      .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'ok%'")
      .all();
    expect(tables).toEqual([{ name: 'ok1' }]);
  });

  it('refuses a store newer than the code, and bad migration lists', () => {
    const s = open();
    s.migrate('executor', [
      { version: 1, up: 'SELECT 1' },
      { version: 2, up: 'SELECT 1' },
    ]);
    expect(() => s.migrate('executor', [{ version: 1, up: 'SELECT 1' }])).toThrow(MigrationError);
    expect(() =>
      s.migrate('dup', [
        { version: 1, up: 'SELECT 1' },
        { version: 1, up: 'SELECT 1' },
      ]),
    ).toThrow(/distinct/);
  });
});

describe('settings', () => {
  it('defaults, validated updates, and persistence', () => {
    const s = open();
    expect(readSettings(s)).toMatchObject({
      baseUrl: null,
      concurrency: 1,
      missedRunPolicy: 'latest',
      updateChannel: 'stable',
      startAtLogin: false,
      agentCommands: {},
    });
    updateSettings(s, {
      baseUrl: 'https://api.example.com',
      concurrency: 3,
      agentCommands: { claude: { command: 'claude', args: ['-p'] } },
    });
    expect(() => updateSettings(s, { missedRunPolicy: 'sometimes' as 'all' })).toThrow();
    expect(() => updateSettings(s, { baseUrl: 'ftp://x' })).toThrow();
    s.close();
    const again = readSettings(open());
    expect(again).toMatchObject({
      baseUrl: 'https://api.example.com',
      concurrency: 3,
      missedRunPolicy: 'latest',
      agentCommands: { claude: { command: 'claude', args: ['-p'] } },
    });
  });

  it('a stored value that no longer parses falls back to its default', () => {
    const s = open();
    s.settings.set('concurrency', 'lots');
    expect(readSettings(s).concurrency).toBe(1);
  });
});

describe('dataDir', () => {
  it('follows the platform conventions and the override', () => {
    expect(dataDir({ POSTDESK_DATA_DIR: '/tmp/x' }, 'linux', '/home/u')).toBe('/tmp/x');
    expect(dataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/u')).toBe('/xdg/postdesk');
    expect(dataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/postdesk');
    expect(dataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/Postdesk');
    expect(dataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toMatch(
      /Roaming.Postdesk$/,
    );
  });
});
