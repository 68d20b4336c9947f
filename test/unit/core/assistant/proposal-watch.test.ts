import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { contentHash } from '../../../../src-main/core/assistant/content-hash';
import { createProposalWatch } from '../../../../src-main/core/assistant/proposal-watch';
import { AssistantLedger } from '../../../../src-main/core/assistant/proposals';
import { openStore, type Store } from '../../../../src-main/core/store/store';

/**
 * What the app hears of `postdesk mcp`'s proposals: two connections to one store file, as the two processes
 * have, and the approval's binding to the exact content.
 */

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const open = (file: string): Store => {
  const s = openStore(file);
  stores.push(s);
  return s;
};

it("tells of each proposal another process makes, once, and of the count's changes", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-proposals-'));
  dirs.push(dir);
  const file = join(dir, 'store.db');
  const mcp = new AssistantLedger(open(file));
  const before = mcp.propose('create_post', { caption: 'a' }, contentHash('create_post', { caption: 'a' }));

  const watch = createProposalWatch({ store: open(file), intervalMs: 20 });
  const told: string[] = [];
  const counts: number[] = [];
  watch.onDidPropose((p) => told.push(p.id));
  watch.onDidChangeWaiting((n) => counts.push(n));
  const made = mcp.propose('delete_post', { id: 'd1' }, contentHash('delete_post', { id: 'd1' }));
  await expect.poll(() => told).toEqual([made.id]);
  mcp.decide(before.id, 'rejected');
  await expect.poll(() => counts.at(-1)).toBe(1);
  await new Promise((r) => setTimeout(r, 60));
  expect(told).toEqual([made.id]);
  watch.dispose();
});

it('binds an approval to the exact content: key order does not matter, any change does, dry_run is not content', () => {
  const a = contentHash('create_post', {
    caption: 'Hi',
    targets: [{ platform: 'x', social_account_id: '1' }],
  });
  expect(
    contentHash('create_post', { targets: [{ social_account_id: '1', platform: 'x' }], caption: 'Hi' }),
  ).toBe(a);
  expect(
    contentHash('create_post', {
      caption: 'Hi',
      targets: [{ platform: 'x', social_account_id: '1' }],
      dry_run: true,
    }),
  ).toBe(a);
  expect(
    contentHash('create_post', { caption: 'Hi!', targets: [{ platform: 'x', social_account_id: '1' }] }),
  ).not.toBe(a);
  expect(
    contentHash('update_post', { caption: 'Hi', targets: [{ platform: 'x', social_account_id: '1' }] }),
  ).not.toBe(a);
});
