import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_MAX_BYTES, createThumbnails } from '../../../src-main/host/thumbnails';

// The smallest PNG: 1×1, transparent.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/a.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (req.url === '/a.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    } else if (req.url === '/big.png') {
      // No length announced: the limit holds while reading.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(THUMBNAIL_MAX_BYTES + 1));
    } else if (req.url === '/moved.png') {
      res.writeHead(302, { location: '/a.png' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('thumbnails of post media, for a page whose CSP allows no remote image', () => {
  it("answers a PNG from the service's own origin as a data URL, and only once from the network", async () => {
    const t = createThumbnails();
    const before = hits.length;
    const url = `${base}/a.png`;
    expect(await t.of(url, base)).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(await t.of(url, base)).toMatch(/^data:image\/png;base64,/);
    expect(hits.length - before).toBe(1);
  });

  it('refuses plain http elsewhere, credentials in the URL, SVG, a redirect and a file over the limit', async () => {
    const t = createThumbnails();
    const before = hits.length;
    expect(await t.of(`${base}/a.png`, 'https://service.example')).toBeNull();
    expect(await t.of(`http://user:pw@127.0.0.1:1/a.png`, base)).toBeNull();
    expect(await t.of('file:///etc/passwd', base)).toBeNull();
    expect(hits.length - before).toBe(0); // none of those was even asked for
    expect(await t.of(`${base}/a.svg`, base)).toBeNull();
    expect(await t.of(`${base}/moved.png`, base)).toBeNull();
    expect(await t.of(`${base}/big.png`, base)).toBeNull();
    expect(await t.of(`${base}/missing.png`, base)).toBeNull();
  });
});
