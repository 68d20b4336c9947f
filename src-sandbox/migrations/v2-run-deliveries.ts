import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';

/**
 * Version 2: a post knows the automation run that made it (`posts.run_id`), and a direct upload that a run
 * published becomes a `posted` delivery of that post (`deliveries.direct_upload_id`), so it shows in the post
 * list and in analytics. Runs completed before this step get their deliveries now, as they would have then.
 */
export function runDeliveries(db: Database.Database): void {
  // Added only where missing: a store whose version was lowered by hand may have them already.
  addColumn(db, 'posts', 'run_id');
  addColumn(db, 'deliveries', 'direct_upload_id');
  db.exec('CREATE INDEX IF NOT EXISTS posts_run ON posts (run_id) WHERE run_id IS NOT NULL');
  const runs = db
    .prepare(
      `SELECT id, owner_id, output, result, finished_at FROM agent_runs WHERE state = 'completed' AND result IS NOT NULL`,
    )
    .all() as { id: string; owner_id: string; output: string | null; result: string; finished_at: string }[];
  for (const run of runs) backfillRun(db, run);
}

function addColumn(db: Database.Database, table: 'posts' | 'deliveries', column: string): void {
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[];
  if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
}

// The platform profile addresses of the sandbox's publisher when this step was written.
const PROFILE_URL: Readonly<Record<string, string>> = {
  tiktok: 'https://www.tiktok.com/@sandbox/video/',
  youtube: 'https://www.youtube.com/watch?v=',
};

interface RunResult {
  post_id?: string | null;
  social_post_ids?: string[];
  published_targets?: { social_account_id: string; platform: string; direct_upload_id: string }[];
}

interface RunOutput {
  caption?: string;
  title?: string;
  media_urls?: string[];
  slides?: { url: string }[];
}

function nextSeq(db: Database.Database): number {
  const row = db
    .prepare(
      `INSERT INTO meta (key, value) VALUES ('seq', '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
    )
    .get() as { value: string | number };
  return Number(row.value);
}

function backfillRun(
  db: Database.Database,
  run: { id: string; owner_id: string; output: string | null; result: string; finished_at: string },
): void {
  const result = JSON.parse(run.result) as RunResult;
  const published = result.published_targets ?? [];
  let postId = result.post_id ?? null;
  if (postId !== null) db.prepare('UPDATE posts SET run_id = ? WHERE id = ?').run(run.id, postId);
  if (published.length === 0) return;

  const output = (run.output === null ? {} : JSON.parse(run.output)) as RunOutput;
  const caption = output.caption ?? '';
  const at = run.finished_at;
  if (postId === null) {
    postId = randomUUID();
    const media = (
      output.slides?.length ? output.slides : (output.media_urls ?? []).map((url) => ({ url }))
    ).map((m) => ({ url: m.url }));
    db.prepare(
      `INSERT INTO posts (id, owner_id, caption, title, media, source, batch_id, item_key, created_at, updated_at, seq, run_id)
       VALUES (?, ?, ?, ?, ?, 'automation', NULL, NULL, ?, ?, ?, ?)`,
    ).run(
      postId,
      run.owner_id,
      caption,
      output.title ?? null,
      JSON.stringify(media),
      at,
      at,
      nextSeq(db),
      run.id,
    );
  }
  const ids: string[] = [];
  for (const target of published) {
    const upload = db
      .prepare('SELECT platform_post_id, published_at FROM agent_direct_uploads WHERE id = ? AND run_id = ?')
      .get(target.direct_upload_id, run.id) as
      { platform_post_id: string | null; published_at: string | null } | undefined;
    const id = randomUUID();
    const publishedAt = upload?.published_at ?? at;
    db.prepare(
      `INSERT INTO deliveries (id, post_id, owner_id, social_account_id, platform, settings, caption, status,
         scheduled_at, next_attempt_at, attempts, last_error, published_at, external_url, created_at, updated_at, seq,
         direct_upload_id)
       VALUES (?, ?, ?, ?, ?, '{}', ?, 'posted', NULL, NULL, 1, NULL, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      postId,
      run.owner_id,
      target.social_account_id,
      target.platform,
      caption,
      publishedAt,
      `${PROFILE_URL[target.platform] ?? 'https://sandbox.invalid/'}${upload?.platform_post_id ?? target.direct_upload_id}`,
      at,
      at,
      nextSeq(db),
      target.direct_upload_id,
    );
    ids.push(id);
  }
  const updated: RunResult = {
    ...result,
    post_id: postId,
    social_post_ids: [...(result.social_post_ids ?? []), ...ids],
  };
  db.prepare('UPDATE agent_runs SET result = ? WHERE id = ?').run(JSON.stringify(updated), run.id);
}
