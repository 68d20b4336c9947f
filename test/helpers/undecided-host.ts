/**
 * A real `postdesk web --sandbox` whose outbox holds publishes nobody could place (`needs_decision`), as a session
 * that lost their answers leaves them: for tests of the page's queued-posts notice.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { PostdeskBridge } from '../../src-shared/ipc/bridge';
import { startTestWebHost } from './web-host';

export interface UndecidedHost {
  readonly bridge: PostdeskBridge;
  /** The outbox entry of each caption given, in order. */
  readonly entryIds: readonly string[];
  /** Each entry's state in the host's store; absent when it was dropped. */
  states(): Record<string, string>;
  /** How many posts with this caption the service holds. */
  postsWithCaption(caption: string): Promise<number>;
  close(): Promise<void>;
}

export async function startUndecidedHost(captions: readonly string[]): Promise<UndecidedHost> {
  const host = await startTestWebHost('postdesk-web-undecided-');
  const { bridge } = host.page;
  const connected = await bridge.connection.useOffline();
  if (!connected.ok) throw new Error(`could not use the sandbox: ${connected.error.message}`);
  const accounts = await bridge.accounts.list();
  const linkedin = accounts.ok ? accounts.value.accounts.find((a) => a.platform === 'linkedin') : undefined;
  if (!linkedin) throw new Error('the demo sandbox has no linkedin account');

  // The host creates its outbox tables when it first uses the outbox.
  await bridge.posts.queued();
  const file = join(host.dir, 'data', 'postdesk.db');
  const db = new Database(file);
  const t = new Date().toISOString();
  const entryIds = captions.map((_, i) => `undecided-${i}`);
  try {
    const insert = db.prepare(
      `INSERT INTO outbox_entries (id, scope, kind, request, state, attempts, sent_at, known_post_ids, created_at,
                                   updated_at)
       VALUES (?, 'sandbox', 'single', ?, 'needs_decision', 1, 1, '[]', ?, ?)`,
    );
    captions.forEach((caption, i) =>
      insert.run(
        entryIds[i],
        JSON.stringify({ caption, targets: [{ platform: 'linkedin', social_account_id: linkedin.id }] }),
        t,
        t,
      ),
    );
  } finally {
    db.close();
  }

  return {
    bridge,
    entryIds,
    states() {
      const read = new Database(file, { readonly: true });
      try {
        const rows = read.prepare('SELECT id, state FROM outbox_entries').all() as {
          id: string;
          state: string;
        }[];
        return Object.fromEntries(rows.map((r) => [r.id, r.state]));
      } finally {
        read.close();
      }
    },
    async postsWithCaption(caption) {
      const r = await bridge.posts.list({ limit: 1000, refresh: true });
      if (!r.ok) throw new Error(r.error.message);
      return new Set(r.value.posts.filter((d) => d.caption === caption).map((d) => d.post_id)).size;
    },
    close: () => host.close(),
  };
}
