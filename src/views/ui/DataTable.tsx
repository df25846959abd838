import type { ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { Button, IconButton } from './Button';
import { ChevronIcon, SortIcon } from './icons';

// The list table of every back-office page: a caption, column headers with scope and aria-sort,
// sortable headers as buttons, a pager with labelled buttons and "x–y of N", and the three states a
// list can be in besides showing rows: loading (a progress bar over the old rows), failed (the
// message and Retry) and empty.

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  sortable?: boolean;
  className?: string;
}

export interface DataTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  sort?: { key: string; order: 'asc' | 'desc' };
  onSortChange?: (sort: { key: string; order: 'asc' | 'desc' }) => void;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  emptyText?: string;
  actions?: (row: T) => ReactNode;
}

/**
 * From tablet width up, the actions column stays in view at the right edge when the table is wider
 * than the page (a long email, the full sidebar): a row's buttons are never off-screen. On a phone
 * it would take most of the width, so there the table just scrolls. The inset shadow draws its
 * left rule, which a collapsed table border would not carry along.
 */
const STICKY_END =
  'whitespace-nowrap md:sticky md:right-0 md:z-[1] md:shadow-[inset_1px_0_0_var(--color-slate-200)]';

/**
 * The empty, loading and failed messages span every column; on a narrow screen the table is wider
 * than its frame, so they are held to the frame's visible width (the scroll box is a size
 * container) and pinned to its start: centred in the whole table they were scrolled out of sight.
 */
const VISIBLE_CELL = 'sticky left-0 w-[100cqw] px-4 py-8 text-center';

function ariaSort(column: string, sort?: { key: string; order: 'asc' | 'desc' }) {
  if (sort?.key !== column) return 'none' as const;
  return sort.order === 'asc' ? ('ascending' as const) : ('descending' as const);
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { LL } = useI18nContext();
  const { columns, rows, total, page, pageSize, sort, loading, error } = props;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const colCount = columns.length + (props.actions ? 1 : 0);

  const toggleSort = (key: string) => {
    if (!props.onSortChange) return;
    const order = sort?.key === key && sort.order === 'asc' ? 'desc' : 'asc';
    props.onSortChange({ key, order });
  };

  let body: ReactNode;
  if (error) {
    body = (
      <tr>
        <td colSpan={colCount} className="p-0">
          <div className={VISIBLE_CELL}>
            <div role="alert" className="mb-3 text-red-800">
              {LL.common.table.loadFailed()}: {error}
            </div>
            {props.onRetry && (
              <Button variant="secondary" onClick={props.onRetry}>
                {LL.common.retry()}
              </Button>
            )}
          </div>
        </td>
      </tr>
    );
  } else if (rows.length === 0 && !loading) {
    body = (
      <tr>
        <td colSpan={colCount} className="p-0 text-slate-600">
          <div className={VISIBLE_CELL}>{props.emptyText ?? LL.common.table.empty()}</div>
        </td>
      </tr>
    );
  } else {
    body = rows.map((row) => (
      <tr key={props.rowKey(row)} className="group border-t border-slate-100 hover:bg-slate-50">
        {columns.map((c) => (
          <td key={c.key} className={`px-4 py-2 align-middle ${c.className ?? ''}`}>
            {c.render(row)}
          </td>
        ))}
        {props.actions && (
          <td className={`${STICKY_END} bg-white px-4 py-2 text-right group-hover:bg-slate-50`}>
            {props.actions(row)}
          </td>
        )}
      </tr>
    ));
  }

  return (
    <div
      className="overflow-hidden rounded-lg border border-slate-200 bg-white"
      aria-busy={loading || undefined}
    >
      <div className="h-1 overflow-hidden bg-transparent">
        {loading && (
          <div role="progressbar" aria-label={LL.common.loading()} className="h-full w-full bg-indigo-100">
            <div className="h-full w-1/3 animate-[loading_1.2s_ease-in-out_infinite] bg-indigo-700" />
          </div>
        )}
      </div>
      <div className="relative overflow-x-auto @container">
        <table className={`w-full text-left text-sm ${loading && rows.length ? 'opacity-60' : ''}`}>
          <caption className="sr-only">{props.caption}</caption>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={c.sortable ? ariaSort(c.key, sort) : undefined}
                  className={`px-4 py-2 font-medium ${c.className ?? ''}`}
                >
                  {c.sortable && props.onSortChange ? (
                    <button
                      type="button"
                      onClick={() => toggleSort(c.key)}
                      className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                      title={LL.common.table.sortBy({ column: c.header })}
                    >
                      {c.header}
                      <SortIcon
                        className="h-3.5 w-3.5"
                        order={sort?.key === c.key ? sort.order : undefined}
                      />
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              ))}
              {props.actions && (
                <th scope="col" className={`${STICKY_END} bg-slate-50 px-4 py-2 text-right font-medium`}>
                  {LL.common.actions()}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {loading && rows.length === 0 && !error ? (
              <tr>
                <td colSpan={colCount} className="p-0 text-slate-600">
                  <div className={VISIBLE_CELL}>{LL.common.loading()}</div>
                </td>
              </tr>
            ) : (
              body
            )}
          </tbody>
        </table>
      </div>
      <nav
        aria-label={LL.common.table.pagination()}
        className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t border-slate-200 px-4 py-2 text-sm text-slate-600"
      >
        <span aria-live="polite" className="whitespace-nowrap">
          {LL.common.table.range({ from, to, total })}
        </span>
        <div className="flex items-center gap-1">
          <IconButton
            label={LL.common.table.firstPage()}
            disabled={page <= 1}
            onClick={() => props.onPageChange(1)}
          >
            <ChevronIcon className="h-4 w-4 rotate-180" />
            <ChevronIcon className="-ml-2.5 h-4 w-4 rotate-180" />
          </IconButton>
          <IconButton
            label={LL.common.table.previousPage()}
            disabled={page <= 1}
            onClick={() => props.onPageChange(page - 1)}
          >
            <ChevronIcon className="h-4 w-4 rotate-180" />
          </IconButton>
          <span className="sr-only whitespace-nowrap px-2 sm:not-sr-only">
            {LL.common.table.pageOf({ page, pages })}
          </span>
          <IconButton
            label={LL.common.table.nextPage()}
            disabled={page >= pages}
            onClick={() => props.onPageChange(page + 1)}
          >
            <ChevronIcon className="h-4 w-4" />
          </IconButton>
          <IconButton
            label={LL.common.table.lastPage()}
            disabled={page >= pages}
            onClick={() => props.onPageChange(pages)}
          >
            <ChevronIcon className="h-4 w-4" />
            <ChevronIcon className="-ml-2.5 h-4 w-4" />
          </IconButton>
        </div>
      </nav>
    </div>
  );
}
