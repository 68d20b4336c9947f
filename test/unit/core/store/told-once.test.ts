import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import { toldOnce, toldOnceTablesSql } from '../../../../src-main/core/store/told-once';

/** The told-once record on a real SQLite file: a scope's first check is its baseline, then each key is told once. */

const TABLES = { told: 'probe_told', key: 'thing_id', at: 'told_at', scopes: 'probe_scopes' } as const;
const key = (t: { id: string }) => t.id;

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'postdesk-told-once-'));
  store = openStore(join(dir, 'store.db'));
  store.migrate('probe', [{ version: 1, up: toldOnceTablesSql(TABLES) }]);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('told once', () => {
  it('records a scope’s first check as its baseline, then tells only what is new, each once, per scope', () => {
    const told = toldOnce(store.db, TABLES);
    const a = { id: 'a' };
    const b = { id: 'b' };
    expect(told.record('one', [a], key, '2026-01-01T00:00:00Z')).toEqual({ baseline: true, fresh: [] });
    expect(told.record('one', [a, b], key, '2026-01-01T00:01:00Z')).toEqual({ baseline: false, fresh: [b] });
    expect(told.record('one', [a, b], key, '2026-01-01T00:02:00Z')).toEqual({ baseline: false, fresh: [] });
    // Another service starts from its own baseline: what it has already is not news.
    expect(told.record('two', [a, b], key, '2026-01-01T00:03:00Z')).toEqual({ baseline: true, fresh: [] });
  });

  it('remembers across a reopened store', () => {
    toldOnce(store.db, TABLES).record('one', [{ id: 'a' }], key, '2026-01-01T00:00:00Z');
    store.close();
    store = openStore(join(dir, 'store.db'));
    store.migrate('probe', [{ version: 1, up: toldOnceTablesSql(TABLES) }]);
    const again = toldOnce(store.db, TABLES).record(
      'one',
      [{ id: 'a' }, { id: 'c' }],
      key,
      '2026-01-01T00:05:00Z',
    );
    expect(again).toEqual({ baseline: false, fresh: [{ id: 'c' }] });
    const rows = store.db.prepare('SELECT thing_id, told_at FROM probe_told ORDER BY thing_id').all();
    expect(rows).toEqual([
      { thing_id: 'a', told_at: '2026-01-01T00:00:00Z' },
      { thing_id: 'c', told_at: '2026-01-01T00:05:00Z' },
    ]);
  });
});
