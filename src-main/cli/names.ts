import type { Logger } from '../core/common/logger';
import type { Core } from '../core/services';
import { truncate } from './output';
import { learningIndex } from './known-posts';

/**
 * Names to print beside ids, so a table is not a column of bare uuids: account names, and post captions.
 * Both are best effort: a table still prints, with the id alone, when they cannot be read now.
 */
export async function accountNames(core: Core): Promise<ReadonlyMap<string, string>> {
  try {
    const { accounts } = await core.client.listAccounts();
    return new Map(accounts.map((a) => [a.id, a.name]));
  } catch {
    return new Map();
  }
}

/** "Name (id)" for an account id: the name first, the id still there to copy; the id alone when no name is known. */
export const accountLabel = (names: ReadonlyMap<string, string>, id: string): string => {
  const name = names.get(id);
  return name ? `${name} (${id})` : id;
};

/** A caption cut for a table cell: one line, at most `max` characters. */
export const captionSnippet = (caption: string, max = 30): string => truncate(caption, max);

/** The captions of these posts as this machine's delivery index holds them (no request); missing ids are left out. */
export function indexedCaptions(
  core: Core,
  log: Logger,
  postIds: readonly string[],
): ReadonlyMap<string, string> {
  const { index, scope } = learningIndex(core, log);
  const out = new Map<string, string>();
  for (const id of postIds) {
    const first = index.ofPost(scope, id)[0];
    if (first) out.set(id, first.caption);
  }
  return out;
}
