import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ComposeDraftContent } from '../../../../src-shared/ipc/compose';
import { openDraftStore } from '../../../../src-main/core/compose/draft-store';
import { openMediaStore } from '../../../../src-main/core/media/media-store';
import { MAX_DRAFTS, createComposeHandlers } from '../../../../src-main/core/bridge/compose-port';
import { createMediaRegistry } from '../../../../src-main/core/bridge/media-registry';
import { openStore, type Store } from '../../../../src-main/core/store/store';

let dir: string;
let file: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-drafts-'));
  file = join(dir, 'postdesk.db');
  store = openStore(file);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const content = (caption: string, extra: Partial<ComposeDraftContent> = {}): ComposeDraftContent => ({
  caption,
  account_ids: ['acc-1'],
  media: [],
  when: 'schedule',
  local_at: '2031-05-01T10:00',
  ...extra,
});

describe('draft store', () => {
  it('keeps the draft being written across a closed and reopened store file, per connection', () => {
    const drafts = openDraftStore(store);
    const first = drafts.save('https://a.example', null, content('hello'));
    drafts.save('https://a.example', first.id, content('hello, world'));
    drafts.save('sandbox', null, content('other connection'));
    store.close();

    // What a crash or a restart leaves: only the file.
    store = openStore(file);
    const again = openDraftStore(store);
    expect(again.current('https://a.example')).toMatchObject({
      id: first.id,
      content: { caption: 'hello, world', account_ids: ['acc-1'], when: 'schedule' },
    });
    expect(again.current('sandbox')?.content.caption).toBe('other connection');
    expect(again.list('https://a.example')).toHaveLength(1);
    expect(again.current('https://b.example')).toBeNull();
  });

  it('starting a new post keeps the old one as a draft; opening it makes it current again', () => {
    let t = Date.parse('2031-01-01T00:00:00Z');
    const drafts = openDraftStore(store, () => new Date((t += 1000)));
    const old = drafts.save('s', null, content('the old one'));
    drafts.startNew('s');
    expect(drafts.current('s')).toBeNull();
    const fresh = drafts.save('s', null, content('the new one'));
    expect(fresh.id).not.toBe(old.id);
    expect(drafts.list('s').map((d) => d.content.caption)).toEqual(['the new one', 'the old one']);
    expect(drafts.open('s', old.id)?.content.caption).toBe('the old one');
    expect(drafts.current('s')?.id).toBe(old.id);
    expect(drafts.open('other-scope', old.id)).toBeNull();
  });

  it('discarding forgets a draft and leaves no current one when it was current', () => {
    const drafts = openDraftStore(store);
    const d = drafts.save('s', null, content('sent'));
    expect(drafts.discard('other', d.id)).toBe(false);
    expect(drafts.discard('s', d.id)).toBe(true);
    expect(drafts.current('s')).toBeNull();
    expect(drafts.list('s')).toEqual([]);
    expect(drafts.discard('s', d.id)).toBe(false);
  });

  it('leaves out a row it cannot read instead of failing the list', () => {
    const drafts = openDraftStore(store);
    drafts.save('s', null, content('fine'));
    store.db
      .prepare(
        "INSERT INTO compose_drafts (scope, id, content, created_at, updated_at) VALUES ('s', 'x', '{not json', 'a', 'z')",
      )
      .run();
    expect(drafts.list('s').map((d) => d.content.caption)).toEqual(['fine']);
  });
});

describe('compose channels over the store', () => {
  const ASSET = '11111111-1111-4111-8111-111111111111';

  /** An upload as the uploader records it once the service has the asset. */
  function uploaded(scope: string, path: string, assetId = ASSET, runId: string | null = null) {
    const media = openMediaStore(store);
    const st = statSync(path);
    const rec = media.insert({
      scope,
      runId,
      assetId,
      path,
      size: st.size,
      mtimeMs: st.mtimeMs,
      digests: { sha256: 'a'.repeat(64), md5: 'b'.repeat(32), size: st.size },
      contentType: 'image/png',
    });
    media.complete(rec.id, `https://cdn.example/${assetId}.png`, '{}');
  }

  /** Drafts are kept per connection; the library reads the uploader's scope (the client's base URL). */
  const handlers = (scope: string | null, mediaScope = scope) =>
    createComposeHandlers({
      store,
      scope: () => scope,
      mediaScope: () => mediaScope,
      media: createMediaRegistry({ previewUrl: (id) => `/media/${id}` }),
    });

  it('lists what this connection uploaded, previewable while the file is unchanged', async () => {
    const png = join(dir, 'sunrise.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    uploaded('s', png);
    uploaded('s', png, '22222222-2222-4222-8222-222222222222', 'run-1'); // an agent's run: not the person's library
    uploaded('elsewhere', png, '33333333-3333-4333-8333-333333333333');

    const { items } = await handlers('s').library();
    expect(items.map((i) => i.asset_id)).toEqual([ASSET]);
    expect(items[0]).toMatchObject({ name: 'sunrise.png', public_url: `https://cdn.example/${ASSET}.png` });
    expect(items[0]?.file.preview_url).toMatch(/^\/media\/[0-9a-f-]{36}$/);

    // The file changed since: the asset is still reusable, but the bytes on disk are no longer it.
    utimesSync(png, new Date(), new Date(Date.now() + 60_000));
    const later = await handlers('s').library();
    expect(later.items[0]?.file).toMatchObject({ id: `asset-${ASSET}`, preview_url: null });
  });

  it('keeps only media the connection uploaded, and restores them with the draft', async () => {
    const png = join(dir, 'a.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a', 'hex'));
    uploaded('http://127.0.0.1:4010', png);
    const h = handlers('sandbox', 'http://127.0.0.1:4010');
    const saved = await h.save({
      id: null,
      content: content('with media', { media: [ASSET, '99999999-9999-4999-8999-999999999999'] }),
    });
    expect(saved.draft.media_count).toBe(1);
    const { draft } = await h.current();
    expect(draft?.media.map((m) => m.asset_id)).toEqual([ASSET]);
    expect(draft?.caption).toBe('with media');
  });

  it('refuses a new draft past the cap, but still keeps changes to one already kept', async () => {
    const h = handlers('s');
    const first = await h.save({ id: null, content: content('first') });
    const drafts = openDraftStore(store);
    store.db.transaction(() => {
      for (let i = 1; i < MAX_DRAFTS; i++) drafts.save('s', null, content(`filler ${i}`));
    })();
    await expect(h.save({ id: null, content: content('one too many') })).rejects.toMatchObject({
      kind: 'invalid_input',
    });
    await expect(h.save({ id: first.draft.id, content: content('first, edited') })).resolves.toMatchObject({
      draft: { id: first.draft.id, caption: 'first, edited' },
    });
  });

  it('says "not connected" without a connection', async () => {
    await expect(handlers(null).drafts()).rejects.toMatchObject({ kind: 'not_connected' });
  });
});
