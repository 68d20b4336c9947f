import type { ReactNode } from 'react';

/**
 * Rows under a header of column names, each a column header (`scope="col"`) for screen readers; `wrap` puts the
 * table in its scrolling box (`tall` for a long list).
 */
export function DataTable({
  label,
  columns,
  className,
  wrap,
  children,
}: {
  /** The table's accessible name, when no heading names it. */
  readonly label?: string;
  readonly columns: readonly ReactNode[];
  readonly className?: string;
  readonly wrap?: 'box' | 'tall';
  /** The rows (`tr`). */
  readonly children: ReactNode;
}) {
  const table = (
    <table className={className ? `table ${className}` : 'table'} aria-label={label}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            // The columns are fixed for a table: their place is their identity.
            <th key={i} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  if (!wrap) return table;
  return <div className={wrap === 'tall' ? 'table-wrap table-wrap--tall' : 'table-wrap'}>{table}</div>;
}
