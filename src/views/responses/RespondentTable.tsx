import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useI18nContext } from '../../i18n/i18n-react';
import type { RespondentListRow, RespondentSort } from '../../api/responses';
import { SortIcon } from '../ui/icons';
import { ariaSort, COLUMNS, nextSort } from './columns';
import type { RowCache } from './rowCache';
import { isSelected, type Selection } from './selection';

// The respondents as one long virtual table: a native <table> (its header, captions and cells read
// as a table) whose body renders only the rows near the viewport between two spacer rows, every
// row the same height and every column a fixed width, so scrolling through 100 000 rows lays out
// the few on screen and measures nothing. Rows whose page has not arrived show as placeholders.
// aria-rowcount and aria-rowindex give a screen reader the row's place in the whole list.
//
// Keyboard: the open row's controls are the table's one tab stop; ↑/↓, Page Up/Down, Home and End
// move through the list (loading pages as they go), Enter or a click opens a row in the side panel,
// and with the panel open moving through the list moves the panel along.

export const ROW_HEIGHT = 44;
const HEADER_HEIGHT = 40;
const SELECT_WIDTH = 44;
const ID_WIDTH = 96;

export interface RespondentTableProps {
  cache: RowCache<RespondentListRow>;
  total: number;
  caption: string;
  /** The row the keyboard is on (and whose respondent the panel shows, when open). */
  active: number;
  /** Whether the panel shows the active row. */
  panelOpen: boolean;
  onActive: (index: number, open: boolean) => void;
  selectable: boolean;
  selection: Selection;
  onToggle: (id: number) => void;
  sort: RespondentSort;
  onSort: (sort: RespondentSort) => void;
}

export function RespondentTable(props: RespondentTableProps) {
  const { LL, locale } = useI18nContext();
  const { cache, total, active, selection, selectable } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  // The rows on screen (and a little around) are what the store fetches.
  useEffect(() => {
    cache.want(Math.max(0, first - 20), last + 20);
  }, [cache, first, last]);

  // The active row stays in view as the keyboard (or the panel's previous/next) moves it.
  useEffect(() => {
    if (total === 0 || active < 0) return;
    const top = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    const y = HEADER_HEIGHT + active * ROW_HEIGHT;
    if (height === 0 || y < top + HEADER_HEIGHT || y + ROW_HEIGHT > top + height)
      virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, total, virtualizer]);

  const focusRow = (index: number) => {
    // After the row has been rendered (it may just have scrolled in).
    requestAnimationFrame(() =>
      body.current?.querySelector<HTMLElement>(`tr[data-index="${index}"] [data-open-row]`)?.focus(),
    );
  };
  const moveTo = (index: number) => {
    const to = Math.max(0, Math.min(total - 1, index));
    props.onActive(to, props.panelOpen);
    focusRow(to);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey || total === 0) return;
    const page = Math.max(1, Math.floor((virtualizer.scrollRect?.height ?? 400) / ROW_HEIGHT) - 1);
    const to =
      e.key === 'ArrowDown'
        ? active + 1
        : e.key === 'ArrowUp'
          ? active - 1
          : e.key === 'PageDown'
            ? active + page
            : e.key === 'PageUp'
              ? active - page
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? total - 1
                  : null;
    if (to === null) return;
    e.preventDefault();
    moveTo(to);
  };

  const colWidths = [...(selectable ? [SELECT_WIDTH] : []), ID_WIDTH, ...COLUMNS.map((c) => c.width)];
  const width = colWidths.reduce((a, b) => a + b, 0);
  const top = items.length > 0 ? items[0].start - HEADER_HEIGHT : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const colCount = colWidths.length;
  const stickyId = selectable ? 'left-11' : 'left-0';
  const cellBase = 'h-11 truncate border-b border-slate-100 px-3 align-middle';

  return (
    <div
      ref={scroller}
      className="h-full overflow-auto rounded-lg border border-slate-200 bg-white"
      data-respondents-scroller
    >
      <table
        className="table-fixed border-separate border-spacing-0 text-left text-sm"
        style={{ width }}
        aria-rowcount={total + 1}
        data-respondents
      >
        <caption className="sr-only">{props.caption}</caption>
        <colgroup>
          {colWidths.map((w, i) => (
            <col key={i} style={{ width: w }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1} className="text-xs uppercase tracking-wide text-slate-600">
            {selectable && (
              <th
                scope="col"
                className="sticky left-0 top-0 z-20 h-10 border-b border-slate-200 bg-slate-50 px-3"
              >
                <span className="sr-only">{LL.responses.columns.select()}</span>
              </th>
            )}
            <th
              scope="col"
              aria-sort={ariaSort(props.sort, 'id')}
              className={`sticky ${stickyId} top-0 z-20 h-10 border-b border-slate-200 bg-slate-50 px-3 font-medium`}
            >
              <SortButton label={LL.responses.columns.id()} field="id" {...props} />
            </th>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={ariaSort(props.sort, c.sort)}
                className={`sticky top-0 z-10 h-10 truncate border-b border-slate-200 bg-slate-50 px-3 font-medium ${c.align === 'right' ? 'text-right' : ''}`}
              >
                {c.sort ? <SortButton label={c.header(LL)} field={c.sort} {...props} /> : c.header(LL)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={onKeyDown}>
          {top > 0 && (
            <tr aria-hidden="true">
              <td colSpan={colCount} style={{ height: top, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = cache.rowAt(item.index);
            const current = item.index === active;
            const tab = current || (active < 0 && item.index === 0) ? 0 : -1;
            if (!row)
              return (
                <tr key={item.key} data-index={item.index} aria-rowindex={item.index + 2} aria-busy="true">
                  <td colSpan={colCount} className={`${cellBase} text-slate-600`}>
                    <span className="inline-block h-3 w-2/3 animate-pulse rounded bg-slate-100" />
                    <span className="sr-only">{LL.common.loading()}</span>
                  </td>
                </tr>
              );
            const picked = isSelected(selection, row.id);
            const shade = current
              ? 'bg-indigo-50'
              : row.exclusion || row.erasedAt !== null
                ? 'bg-slate-50 text-slate-600'
                : 'bg-white';
            return (
              <tr
                key={item.key}
                data-index={item.index}
                data-respondent={row.id}
                data-excluded={row.exclusion ? '' : undefined}
                aria-rowindex={item.index + 2}
                aria-current={current && props.panelOpen ? 'true' : undefined}
                aria-selected={selectable ? picked : undefined}
                className={`group cursor-pointer ${shade} hover:bg-slate-100`}
                onClick={(e) => {
                  if ((e.target as HTMLElement).closest('input')) return;
                  props.onActive(item.index, true);
                }}
              >
                {selectable && (
                  <td className={`${cellBase} sticky left-0 z-[1] ${shade} group-hover:bg-slate-100`}>
                    <input
                      type="checkbox"
                      tabIndex={tab}
                      // Still answering: nothing to exclude or restore yet (the server's rule).
                      disabled={row.status === 'inProgress' && !row.exclusion}
                      checked={picked && !(row.status === 'inProgress' && !row.exclusion)}
                      onChange={() => props.onToggle(row.id)}
                      aria-label={LL.responses.selectOne({ id: row.id })}
                      className="h-4 w-4 accent-indigo-700"
                    />
                  </td>
                )}
                <td className={`${cellBase} sticky ${stickyId} z-[1] ${shade} group-hover:bg-slate-100`}>
                  <button
                    type="button"
                    tabIndex={tab}
                    data-open-row
                    onClick={(e) => {
                      e.stopPropagation();
                      props.onActive(item.index, true);
                    }}
                    aria-label={LL.responses.openOne({ id: row.id })}
                    className="rounded px-1 font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                  >
                    {row.id}
                  </button>
                </td>
                {COLUMNS.map((c) => (
                  <td
                    key={c.key}
                    title={c.full?.(row, LL, locale) || undefined}
                    className={`${cellBase} ${c.align === 'right' ? 'text-right tabular-nums' : ''}`}
                  >
                    {c.cell(row, LL, locale)}
                  </td>
                ))}
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={colCount} style={{ height: bottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function SortButton({
  label,
  field,
  sort,
  onSort,
}: {
  label: string;
  field: 'started' | 'finished' | 'duration' | 'id';
  sort: RespondentSort;
  onSort: (s: RespondentSort) => void;
}) {
  const { LL } = useI18nContext();
  const order = sort === field ? 'asc' : sort === `-${field}` ? 'desc' : undefined;
  return (
    <button
      type="button"
      onClick={() => onSort(nextSort(sort, field))}
      className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      title={LL.common.table.sortBy({ column: label })}
    >
      {label}
      <SortIcon className="h-3.5 w-3.5" order={order} />
    </button>
  );
}
