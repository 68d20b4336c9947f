import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A service that plays hostile: the sandbox behind a proxy that rewrites what it answers. Names, captions,
 * titles, Markdown and links come back carrying HTML, `javascript:`/`data:`/`file:` links, bidi overrides
 * and ANSI escapes, so the test sees what the app makes of them. Requests pass through untouched.
 */
export interface HostileService {
  readonly url: string;
  close(): Promise<void>;
}

export const MARK = 'hostile';
/** What would run if any text became markup: each sets a flag the test reads. */
export const PWN = (n: number) =>
  `<img src=x onerror="window.__pwned=${n}"><script>window.__pwned=${n}</script>`;
export const RLO_NAME = `invoice\u202Egpj.exe`;
export const ANSI = '\u001b[31mred alert\u001b[0m';
/** One published link per delivery the test tags: all but the https ones on the allowlist must stay text. */
export const HOSTILE_URLS = [
  'javascript:window.__pwned=11',
  'data:text/html,<script>window.opener.__pwned=12</script>',
  'file:///etc/passwd',
  'https://evil.example.com/steal',
  'https://user:secret@www.tiktok.com/@sandbox/video/1',
  'https://www.tiktok.com/@sandbox/video/2',
] as const;
export const LONG_WORD = 'W'.repeat(1800);
export const HOSTILE_MARKDOWN = [
  '## Hello',
  '',
  `${PWN(21)}`,
  '',
  '[run me](javascript:window.__pwned=22) and [data](data:text/html,x) and [file](file:///etc/passwd)',
  '',
  '[fine](https://dev.to/ok) ![tracker](https://evil.example.com/pixel.png)',
  '',
  `| a | b |\n|---|---|\n| ${RLO_NAME} | ${ANSI} |`,
].join('\n');

type Json = Record<string, unknown>;

function rewrite(path: string, body: Json): Json {
  if (path === '/api/cli/accounts') {
    const accounts = (body.accounts as Json[]).map((a, i) =>
      i === 0 ? { ...a, name: `${RLO_NAME} ${PWN(1)}` } : i === 1 ? { ...a, name: `${ANSI} ${PWN(2)}` } : a,
    );
    return { ...body, accounts };
  }
  if (path === '/api/cli/posts') {
    let n = 0;
    const posts = (body.posts as Json[]).map((p) => {
      if (!String(p.caption).includes(MARK)) return p;
      const url = HOSTILE_URLS[n++ % HOSTILE_URLS.length];
      return {
        ...p,
        caption: `${String(p.caption)} ${PWN(3)} ${RLO_NAME} ${ANSI} ${LONG_WORD}`,
        external_url: url,
        last_error: `${PWN(4)} ${ANSI}`,
      };
    });
    return { ...body, posts };
  }
  if (path === '/api/cli/articles') {
    const articles = (body.articles as Json[]).map((a) =>
      String(a.title).includes(MARK)
        ? {
            ...a,
            title: `${String(a.title)} ${RLO_NAME}`,
            body_markdown: HOSTILE_MARKDOWN,
            targets: (a.targets as Json[]).map((t) => ({
              ...t,
              url: 'javascript:window.__pwned=31',
              error: PWN(32),
            })),
          }
        : a,
    );
    return { ...body, articles };
  }
  if (path === '/api/skills') {
    const skills = (body.skills as Json[]).map((s, i) =>
      i === 0 ? { ...s, name: `${RLO_NAME} ${PWN(41)}`, description: ANSI } : s,
    );
    return { ...body, skills };
  }
  if (path.startsWith('/api/skills/')) {
    const skill = body.skill as Json | undefined;
    return skill ? { ...body, skill: { ...skill, markdown: HOSTILE_MARKDOWN, name: PWN(42) } } : body;
  }
  if (path === '/api/automations') {
    const automations = (body.automations as Json[]).map((a) => ({ ...a, name: `${RLO_NAME} ${PWN(51)}` }));
    return { ...body, automations };
  }
  return body;
}

export async function startHostileService(target: string): Promise<HostileService> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers['accept-encoding'];
    const out = request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (up: IncomingMessage) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks);
          const path = new URL(req.url ?? '/', 'http://x').pathname;
          if (
            req.method === 'GET' &&
            String(up.headers['content-type']).includes('json') &&
            up.statusCode === 200
          ) {
            body = Buffer.from(JSON.stringify(rewrite(path, JSON.parse(body.toString('utf8')) as Json)));
          }
          const h = { ...up.headers, 'content-length': String(body.length) };
          delete h['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, h);
          res.end(body);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
