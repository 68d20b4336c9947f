import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electronFake, FakeEvent } from '../../helpers/electron-fake';
import { MemoryLog } from '../../helpers/shell-fakes';
import type { DeepLinkRoute } from '../../../src-main/app/deep-links';

vi.mock('electron', () => electronFake.module);

const { DeepLinkRouter, deepLinksInArgv, parseDeepLink, registerDeepLinks } =
  await import('../../../src-main/app/deep-links');

const UUID = '3f2b8c4e-1d2a-4b7c-9e8f-0a1b2c3d4e5f';

describe('parseDeepLink', () => {
  it.each([
    [`postdesk://post/${UUID}`, { kind: 'post', id: UUID }],
    [`postdesk://run/${UUID}`, { kind: 'run', id: UUID }],
    ['postdesk://run/run_42/', { kind: 'run', id: 'run_42' }],
    ['POSTDESK://Post/AbC-9', { kind: 'post', id: 'AbC-9' }],
  ])('accepts %s', (link, route) => {
    expect(parseDeepLink(link)).toEqual({ ok: true, route });
  });

  it.each([
    ['path traversal', 'postdesk://post/../../x'],
    ['encoded traversal', 'postdesk://post/%2e%2e%2fx'],
    ['a nested path', 'postdesk://post/abc/def'],
    ['javascript:', 'javascript:alert(1)'],
    ['https', `https://example.com/post/${UUID}`],
    ['file', 'file:///etc/passwd'],
    ['another host', `postdesk://settings/${UUID}`],
    ['no id', 'postdesk://post/'],
    ['a query', 'postdesk://post/abc?next=https://evil.test'],
    ['a fragment', 'postdesk://post/abc#x'],
    ['credentials', 'postdesk://user@post/abc'],
    ['an id with a space', 'postdesk://post/a b'],
    ['an id starting with a dash', 'postdesk://post/-rf'],
    ['a newline', 'postdesk://post/abc\nINJECTED'],
    ['an overlong id', `postdesk://post/${'a'.repeat(65)}`],
    ['an overlong link', `postdesk://post/${'a'.repeat(10_000)}`],
    ['empty', ''],
  ])('rejects %s', (_name, link) => {
    expect(parseDeepLink(link).ok).toBe(false);
  });

  it('accepts the longest id and no longer', () => {
    expect(parseDeepLink(`postdesk://run/${'a'.repeat(64)}`).ok).toBe(true);
    expect(parseDeepLink(`postdesk://run/${'a'.repeat(65)}`).ok).toBe(false);
  });

  it.each([[undefined], [null], [42], [{ kind: 'post', id: 'x' }]])('rejects non-strings (%s)', (value) => {
    expect(parseDeepLink(value).ok).toBe(false);
  });
});

describe('deepLinksInArgv', () => {
  it('picks our links out of a command line and ignores the rest', () => {
    const argv = [
      '/opt/Postdesk/postdesk',
      '--no-sandbox',
      'postdesk://run/r1',
      'https://x.test',
      '--hidden',
    ];
    expect(deepLinksInArgv(argv)).toEqual(['postdesk://run/r1']);
  });
});

describe('DeepLinkRouter', () => {
  const setup = () => {
    const log = new MemoryLog();
    const router = new DeepLinkRouter(log);
    const navigated: DeepLinkRoute[] = [];
    let reveals = 0;
    return {
      log,
      router,
      navigated,
      reveals: () => reveals,
      attach: () => router.attach({ reveal: () => (reveals += 1), navigate: (r) => navigated.push(r) }),
    };
  };

  it('reveals the window and navigates to a valid link', () => {
    const t = setup();
    t.attach();
    expect(t.router.open(`postdesk://post/${UUID}`, 'open-url')).toBe(true);
    expect(t.navigated).toEqual([{ kind: 'post', id: UUID }]);
    expect(t.reveals()).toBe(1);
  });

  it('rejects a bad link, logs it without echoing the whole input, and navigates nowhere', () => {
    const t = setup();
    t.attach();
    const hostile = `postdesk://post/../../${'A'.repeat(5_000)}`;
    expect(t.router.open(hostile, 'argv')).toBe(false);
    expect(t.navigated).toEqual([]);
    const warning = t.log.entries.find((e) => e.level === 'warn');
    expect(warning?.message).toBe('deep link rejected');
    expect(t.log.text().length).toBeLessThan(400);
    expect(t.log.text()).not.toContain('A'.repeat(100));
  });

  it('holds the latest link that arrives before the window exists', () => {
    const t = setup();
    t.router.open('postdesk://post/first', 'open-url');
    t.router.open('postdesk://run/second', 'open-url');
    expect(t.navigated).toEqual([]);
    t.attach();
    expect(t.navigated).toEqual([{ kind: 'run', id: 'second' }]);
  });
});

describe('registerDeepLinks', () => {
  beforeEach(() => electronFake.reset());

  it('registers postdesk:// and routes macOS open-url events', () => {
    const log = new MemoryLog();
    const router = new DeepLinkRouter(log);
    const navigated: DeepLinkRoute[] = [];
    router.attach({ reveal: () => {}, navigate: (r) => navigated.push(r) });
    const app = electronFake.app;
    const reg = registerDeepLinks(
      app as unknown as Electron.App,
      router,
      { defaultApp: false, execPath: '/x', entryScript: undefined },
      log,
    );
    expect(app.protocolClients).toEqual([{ scheme: 'postdesk', execPath: undefined, args: undefined }]);

    const event = new FakeEvent();
    app.emit('open-url', event, 'postdesk://run/r-7');
    app.emit('open-url', new FakeEvent(), 'javascript:alert(1)');
    expect(event.defaultPrevented).toBe(true);
    expect(navigated).toEqual([{ kind: 'run', id: 'r-7' }]);

    reg.dispose();
    app.emit('open-url', new FakeEvent(), 'postdesk://run/r-8');
    expect(navigated).toHaveLength(1);
  });

  it('in development registers the Electron binary with the entry script', () => {
    const app = electronFake.app;
    registerDeepLinks(
      app as unknown as Electron.App,
      new DeepLinkRouter(new MemoryLog()),
      { defaultApp: true, execPath: '/usr/lib/electron', entryScript: '/src/out/main/index.js' },
      new MemoryLog(),
    );
    expect(app.protocolClients).toEqual([
      { scheme: 'postdesk', execPath: '/usr/lib/electron', args: ['/src/out/main/index.js'] },
    ]);
  });
});
