import { z } from 'zod';
import { DateTime, LIMITS, Platform } from '../src-shared/api';
import { loadAgentFixture } from './agent/fixture';
import { CLOCK_MAX_MS, CLOCK_MIN_MS, isClockTime } from './clock';
import { hashApiKey } from './auth';
import type { SandboxContext } from './context';
import { insertRows, nextSeq, stmt, wipeDatabase } from './db';
import { zodToSandboxError } from './errors';

const SKILL_COLUMNS = ['id', 'name', 'description', 'seq'] as const;
const SKILL_VERSION_COLUMNS = ['skill_id', 'version', 'markdown', 'seq'] as const;

/** The fixture format of sandbox-control.md; agent parts are validated by agent/fixture.ts. */
export const FixtureApiKey = z.object({
  key: z.string().min(8).max(500),
  scopes: z.array(z.string()).default(['media:write']),
  expires_at: DateTime.optional(),
  revoked: z.boolean().default(false),
});
export const FixtureAccount = z.object({
  id: z.uuid(),
  platform: Platform,
  name: z.string().min(1).max(200),
  created_at: DateTime.optional(),
  token_expired: z.boolean().default(false),
  publish_failures: z.number().int().min(0).default(0),
});
export const FixtureOwner = z.object({
  id: z.string().min(1).max(200),
  api_keys: z.array(FixtureApiKey).default([]),
  accounts: z.array(FixtureAccount).default([]),
  executors: z.array(z.unknown()).optional(),
  automations: z.array(z.unknown()).optional(),
  /** Simulated storage already in use (counts toward the 20 GiB and 2,000-object quotas). */
  storage_used_bytes: z.number().int().min(0).default(0),
  storage_used_objects: z.number().int().min(0).default(0),
});
export const FixtureSkill = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1),
  description: z.string().default(''),
  versions: z.array(z.object({ version: z.string().min(1), markdown: z.string() })).min(1),
});
export const Fixture = z.object({
  now: DateTime.refine((s) => isClockTime(Date.parse(s)), {
    message: `must be from ${new Date(CLOCK_MIN_MS).toISOString()} to before ${new Date(CLOCK_MAX_MS).toISOString()}`,
  }).optional(),
  owners: z.array(FixtureOwner).default([]),
  skills: z.array(FixtureSkill).default([]),
});
export type Fixture = z.input<typeof Fixture>;

export function parseFixture(input: unknown): z.infer<typeof Fixture> {
  const parsed = Fixture.safeParse(input);
  if (!parsed.success) throw zodToSandboxError(parsed.error, { prefix: 'fixture.' });
  return parsed.data;
}

/**
 * Wipes all state and loads the fixture. The clock is pinned to the fixture's `now`, or follows real
 * time without it. Runs in one transaction: a bad fixture leaves the old state in place.
 */
export function loadFixture(ctx: SandboxContext, input: unknown): void {
  const fixture = parseFixture(input);
  const now = fixture.now ? new Date(fixture.now) : undefined;
  const previousClock = ctx.clock.isVirtual ? ctx.clock.now() : undefined;
  try {
    loadInTransaction(ctx, fixture, now);
  } catch (err) {
    ctx.clock.reset(previousClock);
    throw err;
  }
}

function loadInTransaction(
  ctx: SandboxContext,
  fixture: z.infer<typeof Fixture>,
  now: Date | undefined,
): void {
  const db = ctx.db;
  db.transaction(() => {
    wipeDatabase(db);
    ctx.clock.reset(now);
    const at = ctx.clock.now();
    const iso = at.toISOString();
    const defaultExpiry = new Date(at.getTime() + LIMITS.apiKeyDays * 86_400_000).toISOString();
    for (const owner of fixture.owners) {
      stmt(
        db,
        'INSERT INTO owners (id, storage_used_bytes, storage_used_objects, created_at) VALUES (?, ?, ?, ?)',
      ).run(owner.id, owner.storage_used_bytes, owner.storage_used_objects, iso);
      for (const key of owner.api_keys) {
        stmt(
          db,
          'INSERT INTO api_keys (id, owner_id, key_hash, scopes, expires_at, revoked, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(
          ctx.uuid(),
          owner.id,
          hashApiKey(key.key),
          JSON.stringify(key.scopes),
          key.expires_at ? new Date(key.expires_at).toISOString() : defaultExpiry,
          key.revoked ? 1 : 0,
          iso,
        );
      }
      for (const account of owner.accounts) {
        stmt(
          db,
          `INSERT INTO accounts (id, owner_id, platform, name, token_expired, publish_failures, created_at, seq)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          account.id,
          owner.id,
          account.platform,
          account.name,
          account.token_expired ? 1 : 0,
          account.publish_failures,
          account.created_at ? new Date(account.created_at).toISOString() : iso,
          nextSeq(db),
        );
      }
      const agentPart: { executors?: unknown[]; automations?: unknown[] } = {};
      if (owner.executors) agentPart.executors = owner.executors;
      if (owner.automations) agentPart.automations = owner.automations;
      loadAgentFixture(ctx, owner.id, agentPart);
    }
    for (const skill of fixture.skills) {
      insertRows(db, 'skills', SKILL_COLUMNS, [skill.id, skill.name, skill.description, nextSeq(db)]);
      for (const version of skill.versions) {
        insertRows(db, 'skill_versions', SKILL_VERSION_COLUMNS, [
          skill.id,
          version.version,
          version.markdown,
          nextSeq(db),
        ]);
      }
    }
  })();
}
