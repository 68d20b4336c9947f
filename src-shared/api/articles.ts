import { z } from 'zod';
import { LIMITS } from './limits';
import { DateTime, pageLimit } from './common';

export const ARTICLE_STATUSES = ['draft', 'publishing', 'published', 'failed'] as const;
export const ArticleStatus = z.enum(ARTICLE_STATUSES);
export type ArticleStatus = z.infer<typeof ArticleStatus>;

/** The five destinations: two developer blogs, a forum, the professional and the microblog network. */
export const ARTICLE_DESTINATIONS = ['devto', 'hashnode', 'forum', 'linkedin', 'x'] as const;
export const ArticleDestination = z.enum(ARTICLE_DESTINATIONS);
export type ArticleDestination = z.infer<typeof ArticleDestination>;

export const CreateArticleRequest = z.object({
  title: z.string().min(1).max(300),
  body_markdown: z.string().min(1).max(100_000),
  tags: z.array(z.string().min(1).max(50)).max(10).optional(),
  canonical_url: z.url().optional(),
  destinations: z.array(ArticleDestination).min(1).max(ARTICLE_DESTINATIONS.length),
  action: z.enum(['draft', 'publish']).default('draft').optional(),
});
export type CreateArticleRequest = z.infer<typeof CreateArticleRequest>;

export const ArticleTargetResult = z.looseObject({
  destination: ArticleDestination,
  status: z.enum(['pending', 'published', 'failed']),
  url: z.string().nullable(),
  error: z.string().nullable(),
});
export type ArticleTargetResult = z.infer<typeof ArticleTargetResult>;

export const Article = z.looseObject({
  id: z.string(),
  title: z.string(),
  body_markdown: z.string(),
  status: ArticleStatus,
  targets: z.array(ArticleTargetResult),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Article = z.infer<typeof Article>;

export const CreateArticleResponse = z.looseObject({
  article: Article,
  results: z.array(ArticleTargetResult).optional(),
});
export type CreateArticleResponse = z.infer<typeof CreateArticleResponse>;

export const ListArticlesQuery = z.object({
  status: ArticleStatus.optional(),
  limit: pageLimit(LIMITS.pageSizeDefault.articles).optional(),
});
export type ListArticlesQuery = z.input<typeof ListArticlesQuery>;
export const ListArticlesResponse = z.looseObject({ articles: z.array(Article) });
export type ListArticlesResponse = z.infer<typeof ListArticlesResponse>;
export const DeleteArticleRequest = z.object({ id: z.string().min(1) });
