import {
  ARTICLE_DESTINATIONS,
  CreateArticleRequest,
  LIMITS,
  ListArticlesQuery,
  type Article,
  type ArticleDestination,
  type ArticleTargetResult,
  type CreateArticleResponse,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { nextSeq, stmt } from '../db';
import { notFound } from '../errors';
import { parse } from '../validate';

interface ArticleRow {
  id: string;
  owner_id: string;
  title: string;
  body_markdown: string;
  tags: string;
  canonical_url: string | null;
  status: Article['status'];
  created_at: string;
  updated_at: string;
}
interface TargetRow {
  article_id: string;
  destination: ArticleDestination;
  status: ArticleTargetResult['status'];
  url: string | null;
  error: string | null;
  published_at: string | null;
}

const SITE: Record<ArticleDestination, string> = {
  devto: 'https://dev.to/sandbox/',
  hashnode: 'https://sandbox.hashnode.dev/',
  forum: 'https://forum.sandbox.invalid/t/',
  linkedin: 'https://www.linkedin.com/feed/update/urn:li:share:',
  x: 'https://x.com/i/article/',
};

const slug = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'article';

/**
 * The deterministic failure rule (docs/sandbox.md): a title containing `[fail:<destination>]` makes
 * that destination fail; `[fail:all]` makes every destination fail.
 */
export function failingDestinations(title: string): Set<ArticleDestination | 'all'> {
  const out = new Set<ArticleDestination | 'all'>();
  for (const m of title.matchAll(/\[fail:([a-z]+)\]/g)) {
    const d = m[1] as ArticleDestination | 'all';
    if (d === 'all' || (ARTICLE_DESTINATIONS as readonly string[]).includes(d)) out.add(d);
  }
  return out;
}

const targetJson = (t: TargetRow): ArticleTargetResult => ({
  destination: t.destination,
  status: t.status,
  url: t.url,
  error: t.error,
  published_at: t.published_at,
});

function articleJson(ctx: SandboxContext, row: ArticleRow): Article {
  const targets = stmt(ctx.db, 'SELECT * FROM article_targets WHERE article_id = ? ORDER BY rowid').all(
    row.id,
  ) as TargetRow[];
  return {
    id: row.id,
    title: row.title,
    body_markdown: row.body_markdown,
    tags: JSON.parse(row.tags) as string[],
    canonical_url: row.canonical_url,
    status: row.status,
    targets: targets.map(targetJson),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * `POST /api/cli/articles`. `draft` (default) stores it with `pending` targets; `publish` delivers to
 * every destination inline: `published` when all succeed, `failed` when any fails (the per-target
 * `results` tell which; published copies stay published).
 */
export function createArticle(ctx: SandboxContext, ownerId: string, body: unknown): CreateArticleResponse {
  const a = parse(CreateArticleRequest, body);
  const iso = ctx.clock.now().toISOString();
  const id = ctx.uuid();
  const publish = a.action === 'publish';
  const fail = failingDestinations(a.title);
  const destinations = [...new Set(a.destinations)];
  const db = ctx.db;
  db.transaction(() => {
    const results = destinations.map((d): TargetRow => {
      if (!publish)
        return {
          article_id: id,
          destination: d,
          status: 'pending',
          url: null,
          error: null,
          published_at: null,
        };
      if (fail.has(d) || fail.has('all')) {
        return {
          article_id: id,
          destination: d,
          status: 'failed',
          url: null,
          error: `simulated ${d} failure (the title contains [fail:${fail.has(d) ? d : 'all'}])`,
          published_at: null,
        };
      }
      return {
        article_id: id,
        destination: d,
        status: 'published',
        url: `${SITE[d]}${slug(a.title)}-${id.slice(0, 8)}`,
        error: null,
        published_at: iso,
      };
    });
    const status: Article['status'] = !publish
      ? 'draft'
      : results.some((r) => r.status === 'failed')
        ? 'failed'
        : 'published';
    stmt(
      db,
      `INSERT INTO articles (id, owner_id, title, body_markdown, tags, canonical_url, status, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      ownerId,
      a.title,
      a.body_markdown,
      JSON.stringify(a.tags ?? []),
      a.canonical_url ?? null,
      status,
      iso,
      iso,
      nextSeq(db),
    );
    for (const r of results) {
      stmt(
        db,
        'INSERT INTO article_targets (article_id, destination, status, url, error, published_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(r.article_id, r.destination, r.status, r.url, r.error, r.published_at);
    }
  })();
  const article = articleJson(ctx, stmt(db, 'SELECT * FROM articles WHERE id = ?').get(id) as ArticleRow);
  return publish ? { article, results: article.targets } : { article };
}

/** `GET /api/cli/articles`: newest first. */
export function listArticles(ctx: SandboxContext, ownerId: string, query: unknown): Article[] {
  const q = parse(ListArticlesQuery, query);
  const rows = stmt(
    ctx.db,
    `SELECT * FROM articles WHERE owner_id = @owner AND (@status IS NULL OR status = @status)
     ORDER BY created_at DESC, seq DESC LIMIT @limit`,
  ).all({
    owner: ownerId,
    status: q.status ?? null,
    limit: q.limit ?? LIMITS.pageSizeDefault.articles,
  }) as ArticleRow[];
  return rows.map((r) => articleJson(ctx, r));
}

/** `DELETE /api/cli/articles`: the record and its targets; copies published elsewhere stay. */
export function deleteArticle(ctx: SandboxContext, ownerId: string, id: string): void {
  const row = stmt(ctx.db, 'SELECT id FROM articles WHERE id = ? AND owner_id = ?').get(id, ownerId);
  if (!row) throw notFound('article');
  ctx.db.transaction(() => {
    stmt(ctx.db, 'DELETE FROM article_targets WHERE article_id = ?').run(id);
    stmt(ctx.db, 'DELETE FROM articles WHERE id = ?').run(id);
  })();
}
