import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import {
  ARTICLE_DESTINATIONS,
  ARTICLE_STATUSES,
  type CreateArticleRequest,
} from '../../../src-shared/api/articles';
import { LIMITS } from '../../../src-shared/api/limits';
import { ValidationError } from '../../core/api/errors';
import { collect, positiveInt } from '../args';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { truncate } from '../output';

interface ArticleOpts {
  title: string;
  body?: string;
  bodyFile?: string;
  dest: string[];
  tag: string[];
  canonicalUrl?: string;
}

function articleRequest(opts: ArticleOpts, action: 'draft' | 'publish'): CreateArticleRequest {
  if ((opts.body === undefined) === (opts.bodyFile === undefined)) {
    throw new ValidationError(
      [{ path: 'body', message: 'give exactly one of --body <markdown> or --body-file <path>' }],
      null,
      'argument',
    );
  }
  const body = opts.body ?? readFileSync(opts.bodyFile as string, 'utf8');
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

function createCommand(parent: Command, deps: CliDeps, name: 'create' | 'publish'): void {
  parent
    .command(name)
    .description(
      name === 'create'
        ? 'create an article as a draft'
        : 'create an article and publish it now to its destinations',
    )
    .requiredOption('--title <text>', 'the title')
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
    .action(async (opts: ArticleOpts, cmd: Command) => {
      const out = deps.output(cmd);
      const req = articleRequest(opts, name === 'create' ? 'draft' : 'publish');
      const core = await deps.core(cmd);
      const res = await out.spin(name === 'create' ? 'creating' : 'publishing', () =>
        core.client.createArticle(req),
      );
      out.result(res, () => {
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
  const articles = program
    .command('articles')
    .description('long-form articles for blogs, a forum, LinkedIn and X');
  articles
    .command('list', { isDefault: true })
    .description('your articles, newest first')
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
