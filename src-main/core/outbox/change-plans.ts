import { createHash, randomUUID } from 'node:crypto';
import type { BulkUpdate } from '../../../src-shared/api/bulk';
import type { UpdatePostRequest } from '../../../src-shared/api/posts';
import type { Store } from '../store/store';
import { OUTBOX_MIGRATIONS, OUTBOX_NAMESPACE } from './migrations';

/**
 * `pending`: not sent, or sent by a process that died before it heard. `unknown`: sent, and the answer was lost;
 * it is sent again (it carries the result, not a step, so twice is the same as once) until the service answers.
 */
export type ChangeItemState = 'pending' | 'unknown' | 'done' | 'failed';

/**
 * One post changed on its own (`posts update <id>`, `posts delete <id>`, the app's edit and delete): an update is
 * recorded as the result it sets (caption, time, status, the targets it adds), never a step.
 */
export type SingleChange =
  | { readonly op: 'update'; readonly body: UpdatePostRequest }
  | { readonly op: 'delete'; readonly id: string };

export interface ChangeItem {
  readonly seq: number;
  readonly postId: string;
  /** The exact entry sent: its result (`scheduled_at` is absolute), never "+1 day". */
  readonly update: BulkUpdate;
  /** For a change of one post on its own: what it asks (then `update` is not used). */
  readonly single: SingleChange | null;
  /** The post's time when the change was planned, to report what moved. */
  readonly before: string | null;
  readonly state: ChangeItemState;
  readonly error: string | null;
  readonly code: string | null;
  readonly attempts: number;
}

/** `open`: items still to settle. `settled`: all settled, not yet told to the person. `reported`: told. */
export interface ChangePlan {
  readonly id: string;
  readonly intent: string;
  readonly state: 'open' | 'settled' | 'reported';
  readonly createdAt: string;
  readonly items: readonly ChangeItem[];
}

export interface ChangePlans {
  /** The latest plan of this intent not yet reported: one a killed run left open, or settled but never told. */
  unfinished(intent: string): ChangePlan | null;
  /** Records the plan in one transaction, before anything is sent. */
  record(
    intent: string,
    items: readonly { postId: string; update: BulkUpdate | SingleChange; before: string | null }[],
  ): ChangePlan;
  get(id: string): ChangePlan | null;
  /** Records one item's outcome; the plan becomes `settled` once no item is pending or unknown. */
  settle(
    id: string,
    seq: number,
    outcome: { state: ChangeItemState; error?: string | null; code?: string | null },
  ): void;
  /** Counts one more send of these items (before it leaves). */
  sending(id: string, seqs: readonly number[]): void;
  /** The person was told a settled plan's outcome: a later run of the same command is a new change. */
  reported(id: string): void;
}

/** A stable name for what a command asked: the same command with the same filters on the same service. */
export function intentOf(parts: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(parts).sort();
  return createHash('sha256')
    .update(JSON.stringify(keys.map((k) => [k, parts[k] ?? null])))
    .digest('hex')
    .slice(0, 32);
}

interface PlanRow {
  id: string;
  intent: string;
  state: ChangePlan['state'];
  created_at: string;
}
interface ItemRow {
  seq: number;
  post_id: string;
  request: string;
  before: string | null;
  state: ChangeItemState;
  error: string | null;
  code: string | null;
  attempts: number;
}

/** The outbox's record of changes to existing posts, for one service (`scope`). */
export function openChangePlans(store: Store, scope: string, now: () => number = Date.now): ChangePlans {
  store.migrate(OUTBOX_NAMESPACE, OUTBOX_MIGRATIONS);
  const db = store.db;
  const iso = () => new Date(now()).toISOString();
  const planRow = db.prepare<[string], PlanRow>(
    'SELECT id, intent, state, created_at FROM outbox_changes WHERE id = ?',
  );
  const itemRows = db.prepare<[string], ItemRow>(
    'SELECT seq, post_id, request, before, state, error, code, attempts FROM outbox_change_items WHERE change_id = ? ORDER BY seq',
  );
  const open = db.prepare<[string, string], { id: string }>(
    `SELECT id FROM outbox_changes WHERE scope = ? AND intent = ? AND state IN ('open', 'settled')
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );

  function get(id: string): ChangePlan | null {
    const p = planRow.get(id);
    if (!p) return null;
    return {
      id: p.id,
      intent: p.intent,
      state: p.state,
      createdAt: p.created_at,
      items: itemRows.all(id).map((r) => {
        const request = JSON.parse(r.request) as BulkUpdate | SingleChange;
        return {
          seq: r.seq,
          postId: r.post_id,
          update: request as BulkUpdate,
          single: 'op' in request ? request : null,
          before: r.before,
          state: r.state,
          error: r.error,
          code: r.code,
          attempts: r.attempts,
        };
      }),
    };
  }

  return {
    unfinished(intent) {
      const r = open.get(scope, intent);
      return r ? get(r.id) : null;
    },
    record(intent, items) {
      const id = randomUUID();
      const t = iso();
      db.transaction(() => {
        db.prepare(
          `INSERT INTO outbox_changes (id, scope, intent, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(id, scope, intent, items.length === 0 ? 'settled' : 'open', t, t);
        const insert = db.prepare(
          `INSERT INTO outbox_change_items (change_id, seq, post_id, request, before, state) VALUES (?, ?, ?, ?, ?, 'pending')`,
        );
        items.forEach((it, seq) => insert.run(id, seq, it.postId, JSON.stringify(it.update), it.before));
      }).immediate();
      return get(id) as ChangePlan;
    },
    get,
    settle(id, seq, outcome) {
      db.transaction(() => {
        db.prepare(
          'UPDATE outbox_change_items SET state = ?, error = ?, code = ? WHERE change_id = ? AND seq = ?',
        ).run(outcome.state, outcome.error ?? null, outcome.code ?? null, id, seq);
        const left = db
          .prepare<[string], { n: number }>(
            `SELECT COUNT(*) AS n FROM outbox_change_items WHERE change_id = ? AND state IN ('pending', 'unknown')`,
          )
          .get(id)?.n;
        db.prepare(`UPDATE outbox_changes SET state = ?, updated_at = ? WHERE id = ? AND state = 'open'`).run(
          left === 0 ? 'settled' : 'open',
          iso(),
          id,
        );
      }).immediate();
    },
    sending(id, seqs) {
      const bump = db.prepare(
        'UPDATE outbox_change_items SET attempts = attempts + 1 WHERE change_id = ? AND seq = ?',
      );
      db.transaction(() => seqs.forEach((s) => bump.run(id, s))).immediate();
    },
    reported(id) {
      // An open plan stays open: its next run finishes it.
      db.prepare(
        `UPDATE outbox_changes SET state = 'reported', updated_at = ? WHERE id = ? AND state = 'settled'`,
      ).run(iso(), id);
    },
  };
}
