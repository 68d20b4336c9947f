import type { DeliveryStatus } from '../../../../src-shared/api/posts';
import { PLATFORM_META } from '../../app/platforms';
import { TextField } from '../../components/Field';
import { PlatformFilter, SelectFilter } from '../../components/Filters';
import type { PostFilters } from '../../stores/use-posts-store';
import { ExportButton } from '../export/ExportButton';

const STATUSES: readonly { value: DeliveryStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'retry_scheduled', label: 'Retrying' },
  { value: 'posted', label: 'Posted' },
  { value: 'failed', label: 'Failed' },
];

/** A status in the words of "No failed posts": the adjective before "posts". */
const STATUS_WORD: Readonly<Record<DeliveryStatus, string>> = {
  draft: 'draft',
  scheduled: 'scheduled',
  retry_scheduled: 'retrying',
  posted: 'posted',
  failed: 'failed',
};

/** What an empty filter matched nothing of, in words: "No failed posts on X matching “launch”". */
export function nothingMatches(filters: Readonly<PostFilters>, query: string): string {
  const status = filters.status === 'all' ? '' : `${STATUS_WORD[filters.status] ?? filters.status} `;
  const platform = filters.platform === 'all' ? '' : ` on ${PLATFORM_META[filters.platform].label}`;
  const text = query ? ` matching “${query}”` : '';
  return `No ${status}posts${platform}${text}`;
}

export const isFiltered = (filters: Readonly<PostFilters>, query: string): boolean =>
  filters.status !== 'all' || filters.platform !== 'all' || query.trim() !== '';

/** The compact bar over the timeline: status, platform, search, then what applies to what they match. */
export function FilterBar({
  filters,
  query,
  matching,
  onFilters,
  onQuery,
  onClear,
  onSelectAll,
}: {
  readonly filters: PostFilters;
  readonly query: string;
  /** Posts the filters match (loaded): what "Select all" selects. */
  readonly matching: number;
  readonly onFilters: (patch: Partial<PostFilters>) => void;
  readonly onQuery: (query: string) => void;
  readonly onClear: () => void;
  readonly onSelectAll: () => void;
}) {
  return (
    <div className="posts-filters" role="search" aria-label="Filter posts">
      <SelectFilter
        id="posts-status"
        label="Status"
        value={filters.status}
        options={STATUSES}
        onChange={(status) => onFilters({ status })}
      />
      <PlatformFilter
        id="posts-platform"
        value={filters.platform}
        onChange={(platform) => onFilters({ platform })}
      />
      <TextField
        id="posts-search"
        label="Search"
        fieldClass="posts-filters__search"
        type="search"
        placeholder="Caption or account"
        value={query}
        onValue={onQuery}
      />
      <span className="posts-filters__after">
        {isFiltered(filters, query) ? (
          <button type="button" className="btn btn--small btn--ghost" onClick={onClear}>
            Clear filters
          </button>
        ) : null}
        {matching > 0 ? (
          <button type="button" className="btn btn--small" onClick={onSelectAll}>
            Select all {matching.toLocaleString()} matching
          </button>
        ) : null}
        <ExportButton kind="posts" />
      </span>
    </div>
  );
}
