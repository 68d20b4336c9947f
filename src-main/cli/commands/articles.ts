import { Option, type Command } from 'commander';
import {
  ARTICLE_DESTINATIONS,
  ARTICLE_STATUSES,
  type CreateArticleRequest,
} from '../../../src-shared/api/articles';
import { LIMITS } from '../../../src-shared/api/limits';
import { ValidationError } from '../../core/api/errors';
import type { Core } from '../../core/services';
import { collect, existingFile, positiveInt } from '../args';
import type { CliDeps } from '../context';
import { EXIT, NotFoundError } from '../exit-codes';
import type { Output } from '../output';
import { truncate } from '../output';
import { readTextFileSync } from '../../core/files';
import { commandGroup, defaultCommand } from '../command-group';

interface ArticleOpts {
  title?: string;
  body?: string;
  bodyFile?: string;
  dest: string[];
  tag: string[];
  canonicalUrl?: string;
}

function articleRequest(opts: ArticleOpts, action: 'draft' | 'publish'): CreateArticleRequest {
  if (opts.title === undefined) {
    throw new ValidationError(
      [{ path: 'title', message: "required option '--title <text>' not specified" }],
      null,
      'argument',
    );
  }
  if ((opts.body === undefined) === (opts.bodyFile === undefined)) {
    throw new ValidationError(
      [{ path: 'body', message: 'give exactly one of --body <markdown> or --body-file <path>' }],
      null,
      'argument',
    );
  }
  const body = opts.body ?? readTextFileSync(existingFile(opts.bodyFile as string, 'body-file'));
  const req: CreateArticleRequest = {
    title: opts.title,
    body_markdown: body,
    destinations: opts.dest as CreateArticleRequest['destinations'],
    action,
  };
  if (opts.tag.length) req.tags = opts.tag;
  if (opts.canonicalUrl) req.canonical_url = opts.canonicalUrl;
  return req;
}

/**
 * `articles publish ID`: the contract can only create articles, so the draft is published as a new article with the
 * same text and destinations, then the draft record is removed. The published article has a new id, which is said.
 */
async function publishDraft(core: Core, out: Output, id: string, dest: readonly string[]) {
  const { articles } = await core.client.listArticles({ status: 'draft', limit: LIMITS.pageSizeMax });
  const draft = articles.find((a) => a.id === id);
  if (!draft) {
    throw new NotFoundError(
      `no draft article ${id} among the newest ${LIMITS.pageSizeMax} drafts (see \`postdesk articles list --status draft\`)`,
    );
  }
  const extra = draft as { tags?: unknown; canonical_url?: unknown };
  const req: CreateArticleRequest = {
    title: draft.title,
    body_markdown: draft.body_markdown,
    destinations: (dest.length
      ? dest
      : draft.targets.map((t) => t.destination)) as CreateArticleRequest['destinations'],
    action: 'publish',
  };
  if (Array.isArray(extra.tags) && extra.tags.length) req.tags = extra.tags as string[];
  if (typeof extra.canonical_url === 'string') req.canonical_url = extra.canonical_url;
  const res = await out.spin('publishing', () => core.client.createArticle(req));
  const removed = await core.client.deleteArticle(id).then(
    () => null,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
  out.note(
    removed === null
      ? `draft ${id} is published as article ${res.article.id}; the draft was removed`
      : `draft ${id} is published as article ${res.article.id}, but the draft could not be removed: ${removed}`,
  );
  return { res, draftId: id, draftRemoved: removed === null };
}

function createCommand(parent: Command, deps: CliDeps, name: 'create' | 'publish'): void {
  const cmd = parent
    .command(name)
    .description(
      name === 'create'
        ? 'create an article as a draft'
        : 'publish a draft article (by id), or create an article and publish it now to its destinations',
    );
  if (name === 'publish')
    cmd.argument('[id]', 'a draft article to publish (see `articles list --status draft`)');
  (name === 'create'
    ? cmd.requiredOption('--title <text>', 'the title')
    : cmd.option('--title <text>', 'the title (a new article)')
  )
    .option('--body <markdown>', 'the article text')
    .option('--body-file <path>', 'read the article text from a Markdown file')
    .option(
      '-d, --dest <destination>',
      `destinations: ${ARTICLE_DESTINATIONS.join(', ')}; repeat or comma-separate`,
      collect,
      [],
    )
    .option('--tag <tag>', 'a tag; repeatable', collect, [])
    .option('--canonical-url <url>', 'the original location of the text')
    .action(async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      const opts = args.at(-2) as ArticleOpts;
      const id = name === 'publish' ? (args[0] as string | undefined) : undefined;
      const out = deps.output(cmd);
      if (id !== undefined) {
        const given = (['title', 'body', 'bodyFile', 'canonicalUrl'] as const).filter(
          (k) => opts[k] !== undefined,
        );
        if (given.length || opts.tag.length) {
          throw new ValidationError(
            [
              {
                path: 'id',
                message:
                  'publishing a draft takes its text from the draft: give the id, or --title and a body for a new article, not both',
              },
            ],
            null,
            'argument',
          );
        }
      }
      const req = id === undefined ? articleRequest(opts, name === 'create' ? 'draft' : 'publish') : null;
      const core = await deps.core(cmd);
      const published = req ? null : await publishDraft(core, out, id as string, opts.dest);
      const res =
        published?.res ??
        (await out.spin(name === 'create' ? 'creating' : 'publishing', () =>
          core.client.createArticle(req as CreateArticleRequest),
        ));
      const json = published
        ? { ...res, draft_id: published.draftId, draft_removed: published.draftRemoved }
        : res;
      out.result(json, () => {
        out.line(`${out.colors.green('✓')} article ${res.article.id} (${res.article.status})`);
        const results = res.results ?? res.article.targets;
        if (results.length) {
          out.table(
            ['destination', 'status', 'url', 'error'],
            results.map((r) => [r.destination, r.status, r.url, r.error]),
          );
        }
      });
      if (name === 'publish' && (res.results ?? []).some((r) => r.status === 'failed'))
        deps.setExitCode(EXIT.service);
    });
}

export function registerArticlesCommand(program: Command, deps: CliDeps): void {
  const articles = commandGroup(program, 'articles', 'long-form articles for blogs, a forum, LinkedIn and X');
  defaultCommand(articles, 'list', 'your articles, newest first')
    .addOption(new Option('--status <status>').choices(ARTICLE_STATUSES))
    .option('--limit <n>', `1 to ${LIMITS.pageSizeMax}`, positiveInt('--limit', LIMITS.pageSizeMax))
    .action(async (opts: { status?: (typeof ARTICLE_STATUSES)[number]; limit?: number }, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const res = await out.spin('listing articles', () =>
        core.client.listArticles({ status: opts.status, limit: opts.limit }),
      );
      out.result(res, () =>
        out.table(
          ['id', 'status', 'title', 'destinations', 'created'],
          res.articles.map((a) => [
            a.id,
            a.status,
            truncate(a.title, 40),
            a.targets.map((t) => `${t.destination}:${t.status}`).join(', '),
            a.created_at,
          ]),
        ),
      );
    });
  createCommand(articles, deps, 'create');
  createCommand(articles, deps, 'publish');
  articles
    .command('delete <id>')
    .description('delete the article record (copies published elsewhere stay)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const res = await out.spin('deleting', () => core.client.deleteArticle(id));
      out.result({ ...res, id }, () => out.line(`${out.colors.green('✓')} deleted article ${id}`));
    });
}
