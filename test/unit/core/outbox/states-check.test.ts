import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTBOX_MIGRATIONS, OUTBOX_NAMESPACE } from '../../../../src-main/core/outbox/migrations';
import { OUTBOX_STATES } from '../../../../src-main/core/outbox/outbox';
import { openStore } from '../../../../src-main/core/store/store';

// The outbox's states are declared twice by necessity: OUTBOX_STATES in TypeScript, and the SQL CHECK of a
// migration already applied on people's machines (SQLite cannot alter a CHECK; a new state is a new
// migration that rebuilds the table). This keeps the two equal, read from the schema a real file ends with.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-outbox-check-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The states the `state` column's CHECK allows, as the file's own schema (sqlite_master) states them. */
function checkedStates(file: string): string[] {
  const store = openStore(file);
  try {
    const row = store.db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get('outbox_entries') as { sql: string } | undefined;
    const check = /\bstate\s+TEXT\b[^,]*?CHECK\s*\(\s*state\s+IN\s*\(([^)]*)\)\s*\)/i.exec(row?.sql ?? '');
    if (!check?.[1]) throw new Error(`no CHECK on outbox_entries.state in: ${row?.sql}`);
    return [...check[1].matchAll(/'([^']*)'/g)].map((m) => m[1] as string);
  } finally {
    store.close();
  }
}

function migrated(file: string, migrations = OUTBOX_MIGRATIONS): void {
  const store = openStore(file);
  try {
    store.migrate(OUTBOX_NAMESPACE, migrations);
  } finally {
    store.close();
  }
}

describe("the outbox's SQL CHECK and OUTBOX_STATES", () => {
  it('allow the same states in a new file', () => {
    const file = join(dir, 'postdesk.db');
    migrated(file);
    expect(checkedStates(file)).toEqual([...OUTBOX_STATES]);
  });

  it('allow the same states in a file upgraded from the first outbox schema', () => {
    const file = join(dir, 'postdesk.db');
    migrated(file, OUTBOX_MIGRATIONS.slice(0, 1));
    migrated(file);
    expect(checkedStates(file)).toEqual([...OUTBOX_STATES]);
  });

  it('has the CHECK refuse a state OUTBOX_STATES does not name, and accept each one it does', () => {
    const file = join(dir, 'postdesk.db');
    migrated(file);
    const store = openStore(file);
    try {
      // Each state through the CHECK alone: an UPDATE of one row, its other columns left as written.
      const columns = store.db.prepare('PRAGMA table_info(outbox_entries)').all() as {
        name: string;
        notnull: number;
        type: string;
      }[];
      const values = columns.map((c) =>
        c.name === 'state'
          ? 'pending'
          : c.name === 'kind'
            ? 'single'
            : c.notnull
              ? /INT/i.test(c.type)
                ? 0
                : 'x'
              : null,
      );
      store.db
        .prepare(
          `INSERT INTO outbox_entries (${columns.map((c) => c.name).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        )
        .run(...values);
      const set = store.db.prepare('UPDATE outbox_entries SET state = ?');
      for (const state of OUTBOX_STATES) expect(() => set.run(state)).not.toThrow();
      expect(() => set.run('lost')).toThrow(/CHECK/);
    } finally {
      store.close();
    }
  });
});
