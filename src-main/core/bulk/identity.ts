import { createHash } from 'node:crypto';
import type { MediaStore } from '../media/media-store';
import { digestFile } from './plan';
import type { PostRow } from './validate';

/**
 * Which import a file is: the posts its rows would send, not the file's bytes. A copy saved with other line
 * endings, rows in another order, or another `--timezone` that changes no time in it is the same import; a local
 * time read in another zone is another post, so another import.
 */
export async function importIdentity(
  rows: readonly PostRow[],
  media: MediaStore | null,
  signal?: AbortSignal,
): Promise<string> {
  const contents = new Map<string, string>();
  const contentOf = async (path: string): Promise<string> => {
    let key = contents.get(path);
    if (key === undefined) {
      // A file that cannot be read fails validation later; until then it stands for itself.
      key = await digestFile(path, media, signal).then(
        (d) => `sha256:${d.sha256}`,
        () => `unreadable:${path}`,
      );
      contents.set(path, key);
    }
    return key;
  };

  const posts: string[] = [];
  for (const r of rows) {
    const media: string[] = [];
    for (const m of r.media) media.push(m.kind === 'asset' ? `asset:${m.assetId}` : await contentOf(m.path));
    posts.push(
      JSON.stringify([
        r.caption,
        r.title ?? null,
        media,
        // The service makes one delivery per target whatever their order.
        r.targets.map((t) => `${t.platform}:${t.social_account_id}`).sort(),
        r.action,
        r.scheduledAt ? new Date(r.scheduledAt).toISOString() : null,
      ]),
    );
  }
  // A multiset: the same rows in another order are the same posts; a row written twice is two posts.
  posts.sort();
  return `rows-v1:${createHash('sha256').update(JSON.stringify(posts)).digest('hex')}`;
}

/** The identity imports had before: the file's bytes and the default zone. Still looked up, so a file imported
 *  before the change is recognised. */
export const legacyFingerprint = (bytes: Buffer, zone: string): string =>
  createHash('sha256').update(bytes).update('\0').update(zone).digest('hex');
