import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, resolveStatic } from '../../../src-main/host/static-files';

// The one static-file rule both hosts of the renderer follow (Electron's app scheme, `postdesk web`),
// against a real build folder on disk.
let root: string;
let outside: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'postdesk-static-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'postdesk-static-outside-')));
  await writeFile(join(root, 'index.html'), '<!doctype html>');
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'docs', 'index.html'), 'docs');
  await writeFile(join(root, '.env'), 'SECRET=1');
  await writeFile(join(outside, 'secret.js'), 'the secret');
  await symlink(join(outside, 'secret.js'), join(root, 'assets', 'linked.js'));
  await symlink(join(root, 'assets', 'app.js'), join(root, 'assets', 'alias.js'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('resolveStatic', () => {
  it('answers a built file by its path, and a folder by its index.html', async () => {
    expect(await resolveStatic(root, '/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
    expect(await resolveStatic(root, '/docs/')).toBe(join(root, 'docs', 'index.html'));
    expect(await resolveStatic(root, '/')).toBe(join(root, 'index.html'));
  });

  it("answers a client-side route (no extension) with the app's index.html, a missing asset with nothing", async () => {
    expect(await resolveStatic(root, '/calendar')).toBe(join(root, 'index.html'));
    expect(await resolveStatic(root, '/settings/accounts')).toBe(join(root, 'index.html'));
    expect(await resolveStatic(root, '/assets/missing.js')).toBeNull();
  });

  it('serves nothing from outside the build: not through a symlink, a climb or an encoded climb', async () => {
    expect(await resolveStatic(root, '/assets/linked.js')).toBeNull();
    const away = outside.split('/').pop()!;
    expect(await resolveStatic(root, `/../${away}/secret.js`)).toBeNull();
    expect(await resolveStatic(root, `/assets/%2e%2e/%2e%2e/${away}/secret.js`)).toBeNull();
    // A climb to a path without an extension is a client-side route: the page, never the file.
    expect(await resolveStatic(root, '/assets/%2e%2e/%2e%2e/etc/passwd')).toBe(join(root, 'index.html'));
    // A symlink that stays inside the build is the file it names.
    expect(await resolveStatic(root, '/assets/alias.js')).toBe(join(root, 'assets', 'app.js'));
  });

  it('refuses dotfiles, NUL bytes and malformed escapes', async () => {
    expect(await resolveStatic(root, '/.env')).toBeNull();
    expect(await resolveStatic(root, '/%2eenv')).toBeNull();
    expect(await resolveStatic(root, '/assets/app.js%00.html')).toBeNull();
    expect(await resolveStatic(root, '/%E0%A4%A')).toBeNull();
  });

  it('answers nothing when the build folder is missing', async () => {
    expect(await resolveStatic(join(root, 'nope'), '/index.html')).toBeNull();
  });
});

describe('contentTypeOf', () => {
  it('types the files a build holds and nothing else', () => {
    expect(contentTypeOf('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/x/APP.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('/x/font.woff2')).toBe('font/woff2');
    expect(contentTypeOf('/x/blob.bin')).toBe('application/octet-stream');
  });
});
