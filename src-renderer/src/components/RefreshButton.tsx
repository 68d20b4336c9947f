import { IconRefresh } from './icons';

/** The small ghost "Refresh" button of a card's header. */
export function RefreshButton({ onRefresh }: { readonly onRefresh: () => void }) {
  return (
    <button type="button" className="btn btn--small btn--ghost" onClick={onRefresh}>
      <IconRefresh size={14} /> Refresh
    </button>
  );
}
