import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** README.md and every page of docs/: what someone who clones the repository reads. */
const ROOT = process.cwd();
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks: links there are text, not links. */
const prose = (md: string): string => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string): Set<string> =>
  new Set([...prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

interface Link {
  readonly doc: string;
  readonly target: string;
}

function linksOf(doc: string): Link[] {
  // Inline code is text too: `<platform:id>` there is not an autolink.
  const text = prose(readFileSync(join(ROOT, doc), 'utf8')).replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((m) => m[1]!),
  ];
  return targets.map((target) => ({ doc, target }));
}

/** Why this link does not resolve inside the repository, or null when it does. */
function problem({ doc, target }: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'points outside the repository';
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith('..')) return 'points outside the repository';
  if (!existsSync(file)) return 'names a file that is not in the repository';
  if (anchor !== undefined) {
    if (!file.endsWith('.md') || statSync(file).isDirectory())
      return 'has an anchor into a file with no headings';
    if (!anchorsOf(file).has(anchor))
      return `names a heading (#${anchor}) that ${relative(ROOT, file)} does not have`;
  }
  return null;
}

describe('README.md and docs/ stand on their own', () => {
  it('every link resolves to a file (and heading) inside the repository', () => {
    const links = DOCS.flatMap(linksOf);
    expect(links.length).toBeGreaterThan(20);
    const broken = links.flatMap((l) => {
      const why = problem(l);
      return why ? [`${l.doc}: (${l.target}) ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('every Markdown file a page names in code (`dir/file.md`) is in the repository', () => {
    const missing = DOCS.flatMap((doc) =>
      [...prose(readFileSync(join(ROOT, doc), 'utf8')).matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.md)`/g)]
        .map((m) => m[1]!)
        .filter((p) => !existsSync(join(ROOT, p)) && !existsSync(resolve(ROOT, dirname(doc), p)))
        .map((p) => `${doc}: \`${p}\``),
    );
    expect(missing).toEqual([]);
  });

  it('finds what it looks for: a dead link, a link out, a missing heading', () => {
    expect(problem({ doc: 'README.md', target: 'shared/service-api.md' })).toMatch(/not in the repository/);
    expect(problem({ doc: 'README.md', target: 'https://example.com/' })).toMatch(/outside/);
    expect(problem({ doc: 'docs/cli.md', target: '../../elsewhere.md' })).toMatch(/outside/);
    expect(problem({ doc: 'README.md', target: 'docs/cli.md#no-such-heading' })).toMatch(/heading/);
    expect(problem({ doc: 'README.md', target: 'docs/cli.md#exit-codes' })).toBeNull();
  });
});
