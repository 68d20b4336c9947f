import type { Account } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { keptReads, stmt } from '../db';
import { accountJson, type AccountRow } from './records';

/** The owner's connected accounts: listed, by id for many targets, and one kept once read. */
export function listAccounts(ctx: SandboxContext, ownerId: string): Account[] {
  const rows = stmt(
    ctx.db,
    'SELECT * FROM accounts WHERE owner_id = ? ORDER BY created_at DESC, seq DESC',
  ).all(ownerId) as AccountRow[];
  return rows.map(accountJson);
}

/** The owner's accounts by id, for checking many targets with one read. */
export function accountsById(ctx: SandboxContext, ownerId: string): ReadonlyMap<string, AccountRow> {
  const rows = stmt(ctx.db, 'SELECT * FROM accounts WHERE owner_id = ?').all(ownerId) as AccountRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The owner's account, or null: a foreign id is indistinguishable from a missing one. Kept once read
 * (keptReads: accounts change only when a fixture is loaded, and any write there empties what is kept).
 */
export function getAccount(ctx: SandboxContext, ownerId: string, accountId: string): AccountRow | null {
  const kept = keptReads<AccountRow | null>(ctx.db, 'accounts');
  // The owner's length first: no owner id and account id run together into another pair's key.
  const key = `${ownerId.length}:${ownerId}${accountId}`;
  const known = kept.get(key);
  if (known !== undefined) return known;
  const row =
    (stmt(ctx.db, 'SELECT * FROM accounts WHERE id = ? AND owner_id = ?').get(accountId, ownerId) as
      AccountRow | undefined) ?? null;
  kept.set(key, row);
  return row;
}
