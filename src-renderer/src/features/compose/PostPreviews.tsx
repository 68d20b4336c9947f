import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Platform } from '../../../../src-shared/api/common';
import type { Delivery } from '../../../../src-shared/api/posts';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useComposeStore } from '../../stores/use-compose-store';
import { platformWarnings } from './caption-counts';
import { CaptionPreviews, type PreviewAuthor, type PreviewMedia } from './CaptionPreviews';

/**
 * The previews of a post that exists: one per platform its deliveries go to. Its media are shown from the
 * media library when this connection uploaded them (the service's own addresses are not loaded by the page).
 */
export function PostPreviews({
  caption,
  deliveries,
}: {
  readonly caption: string;
  readonly deliveries: readonly Delivery[];
}) {
  const { library, loadLibrary } = useComposeStore(
    useShallow((s) => ({ library: s.library, loadLibrary: s.loadLibrary })),
  );
  const needLibrary = library.data === null && !library.loading && library.error === null;
  useEffect(() => {
    if (needLibrary) void loadLibrary();
  }, [needLibrary, loadLibrary]);

  const platforms = useMemo(
    () => [...new Set(deliveries.map((d) => d.platform))] as Platform[],
    [deliveries],
  );
  const media = useMemo<PreviewMedia[]>(
    () =>
      (deliveries[0]?.media ?? []).map((m, i) => {
        const known = library.data?.find((l) => l.asset_id === m.asset_id);
        return known
          ? { name: known.name, src: known.file.preview_url, kind: known.file.kind }
          : { name: `file ${i + 1}`, src: null, kind: 'other' };
      }),
    [deliveries, library.data],
  );
  // Each platform's preview speaks as the post's (first) account there, by its name when the accounts are known.
  const accounts = useAccountsStore((s) => s.accounts.data);
  const authors = useMemo(() => {
    const m = new Map<Platform, PreviewAuthor>();
    for (const d of deliveries) {
      const name = accounts?.find((a) => a.id === d.social_account_id)?.name;
      if (name && !m.has(d.platform)) m.set(d.platform, { id: d.social_account_id, name });
    }
    return m;
  }, [deliveries, accounts]);
  const warnings = platformWarnings(caption, platforms);
  return (
    <div className="form-stack">
      {warnings.map((w) => (
        <span key={w} className="field__hint preview__warn">
          {w}
        </span>
      ))}
      <CaptionPreviews
        caption={caption}
        platforms={platforms}
        media={media}
        authors={authors}
        idPrefix="post-preview"
      />
    </div>
  );
}
