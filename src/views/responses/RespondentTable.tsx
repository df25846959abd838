import { memo, useEffect, useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useI18nContext } from '../../i18n/i18n-react';
import type { RespondentListRow, RespondentSort } from '../../api/responses';
import { SortIcon } from '../ui/icons';
import { ariaSort, COLUMNS, nextSort } from './columns';
import type { RowCache } from './rowCache';
import { isSelected, type Selection } from './selection';

// The respondents as one long virtual table: the ARIA table pattern (table, row groups, rows,
// column headers with aria-sort, cells) over absolutely placed rows, of which only those near the
// viewport exist. Every row is 44 px high and every column a fixed width, and each row is a box of
// its own (CSS containment), so a row coming or going lays out that row only: scrolling through
// 100 000 rows measures nothing and re-lays nothing else. (A native <table> with spacer rows was
// tried first: each new row re-laid the whole table, a third of every frame; bench in
// docs/benchmarks.md.) No cell sticks to the left edge: 80 sticky cells doubled the time of every
// scrolled frame (measured: median 33 ms against 16.7 without, p95 83–150 against 33–50). Rows
// whose page has not arrived show as placeholders. aria-rowcount and aria-rowindex give a screen
// reader the row's place in the whole list.
//
// Keyboard: the open row's controls are the table's one tab stop; ↑/↓, Page Up/Down, Home and End
// move through the list (loading pages as they go), Enter or a click opens a row in the side panel,
// and with the panel open moving through the list moves the panel along.

export const ROW_HEIGHT = 44;
const HEADER_HEIGHT = 40;
const SELECT_WIDTH = 44;
// Wide enough for the header "Number" (/ "Номер") in capitals beside its sort arrow.
const ID_WIDTH = 116;

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
  const { LL } = useI18nContext();
  const { cache, total, active, selection, selectable } = props;
  // The rows arriving redraw the table, not the page around it.
  useSyncExternalStore(cache.subscribe, () => cache.getSnapshot().version);
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
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
    const opener = () => body.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-open-row]`);
    // At once when the row is on screen, so a key pressed right after (Enter) acts on it; after the
    // next frame when it has just to scroll in.
    const now = opener();
    if (now) now.focus();
    else requestAnimationFrame(() => opener()?.focus());
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
  const geometry: Geometry = { width, selectable };

  return (
    <div
      ref={scroller}
      className="h-full overflow-auto rounded-lg border border-slate-200 bg-white [contain:strict]"
      data-respondents-scroller
    >
      <div
        role="table"
        aria-label={props.caption}
        aria-rowcount={total + 1}
        aria-colcount={colWidths.length}
        className="relative text-left text-sm"
        style={{ width, height: virtualizer.getTotalSize() }}
        data-respondents
      >
        <div role="rowgroup" className="sticky top-0 z-20">
          <div
            role="row"
            aria-rowindex={1}
            className="flex h-10 border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600"
          >
            {selectable && (
              <div role="columnheader" className={HEAD} style={{ width: SELECT_WIDTH }}>
                <span className="sr-only">{LL.responses.columns.select()}</span>
              </div>
            )}
            <div
              role="columnheader"
              aria-sort={ariaSort(props.sort, 'id')}
              className={HEAD}
              style={{ width: ID_WIDTH }}
            >
              <SortButton label={LL.responses.columns.id()} field="id" {...props} />
            </div>
            {COLUMNS.map((c) => (
              <div
                key={c.key}
                role="columnheader"
                aria-sort={ariaSort(props.sort, c.sort)}
                className={`${HEAD} ${c.align === 'right' ? 'justify-end' : ''}`}
                style={{ width: c.width }}
              >
                {c.sort ? (
                  <SortButton label={c.header(LL)} field={c.sort} {...props} />
                ) : (
                  <span className="min-w-0 truncate">{c.header(LL)}</span>
                )}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" ref={body} onKeyDown={onKeyDown}>
          {items.map((item) => {
            const row = cache.rowAt(item.index);
            const current = item.index === active;
            return (
              <Row
                // A row's slot, not its index: scrolling keeps the rows still on screen as they are
                // and fills the freed slots in place, instead of taking rows down and building new ones.
                key={items.length <= SLOTS ? item.index % SLOTS : item.index}
                index={item.index}
                top={item.start}
                row={row}
                current={current}
                panelOpen={props.panelOpen}
                tab={current || (active < 0 && item.index === 0) ? 0 : -1}
                picked={row ? isSelected(selection, row.id) : false}
                geometry={geometry}
                onActive={props.onActive}
                onToggle={props.onToggle}
              />
            );
          })}
        </div>
      </div>
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
      className="inline-flex min-w-0 max-w-full items-center gap-1 rounded uppercase hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      title={LL.common.table.sortBy({ column: label })}
    >
      <span className="min-w-0 truncate">{label}</span>
      <SortIcon className="h-3.5 w-3.5 shrink-0" order={order} />
    </button>
  );
}

const HEAD = 'flex shrink-0 items-center overflow-hidden whitespace-nowrap px-3 font-medium';
const CELL = 'flex shrink-0 items-center overflow-hidden whitespace-nowrap px-3';
/** Rows rendered at once stay under this (the keys are slots modulo it). */
const SLOTS = 128;

interface Geometry {
  width: number;
  selectable: boolean;
}

interface RowProps {
  index: number;
  /** Its place in the scrolled box (the header's height included). */
  top: number;
  row: RespondentListRow | undefined;
  current: boolean;
  panelOpen: boolean;
  tab: 0 | -1;
  picked: boolean;
  geometry: Geometry;
  onActive: (index: number, open: boolean) => void;
  onToggle: (id: number) => void;
}

/** One row; drawn again only when what it shows changes (the rows already on screen while scrolling do not). */
const Row = memo(function Row({
  index,
  top,
  row,
  current,
  panelOpen,
  tab,
  picked,
  geometry,
  onActive,
  onToggle,
}: RowProps) {
  const { LL, locale } = useI18nContext();
  // A box of a known size: laying it out never reaches its neighbours.
  const box = {
    position: 'absolute',
    top,
    left: 0,
    width: geometry.width,
    height: ROW_HEIGHT,
    contain: 'strict',
  } as const;
  if (!row)
    // A still grey bar (no animation: a pulse would repaint the box every frame while pages arrive).
    return (
      <div
        role="row"
        data-index={index}
        aria-rowindex={index + 2}
        aria-busy="true"
        className="flex border-b border-slate-100"
        style={box}
      >
        <div role="cell" className={`${CELL} w-full text-slate-600`}>
          <span className="inline-block h-3 w-1/2 rounded bg-slate-100" />
          <span className="sr-only">{LL.common.loading()}</span>
        </div>
      </div>
    );
  const shade = current
    ? 'bg-indigo-50'
    : row.exclusion || row.erasedAt !== null
      ? 'bg-slate-50 text-slate-600'
      : 'bg-white';
  // Still answering (nothing to exclude yet) or erased (never restored): the server's rules.
  const locked = (row.status === 'inProgress' && !row.exclusion) || row.erasedAt !== null;
  return (
    <div
      role="row"
      data-index={index}
      data-respondent={row.id}
      data-excluded={row.exclusion ? '' : undefined}
      aria-rowindex={index + 2}
      aria-current={current && panelOpen ? 'true' : undefined}
      aria-selected={geometry.selectable ? picked : undefined}
      className={`group flex cursor-pointer border-b border-slate-100 ${shade} hover:bg-slate-100`}
      style={box}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('input')) return;
        onActive(index, true);
      }}
    >
      {geometry.selectable && (
        <div role="cell" className={CELL} style={{ width: SELECT_WIDTH }}>
          <input
            type="checkbox"
            tabIndex={tab}
            disabled={locked}
            checked={picked && !locked}
            onChange={() => onToggle(row.id)}
            aria-label={LL.responses.selectOne({ id: row.id })}
            className="h-4 w-4 accent-indigo-700"
          />
        </div>
      )}
      <div role="cell" className={CELL} style={{ width: ID_WIDTH }}>
        <button
          type="button"
          tabIndex={tab}
          data-open-row
          onClick={(e) => {
            e.stopPropagation();
            onActive(index, true);
          }}
          aria-label={LL.responses.openOne({ id: row.id })}
          className="rounded px-1 font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {row.id}
        </button>
      </div>
      {COLUMNS.map((c) => (
        <div
          key={c.key}
          role="cell"
          title={c.full?.(row, LL, locale) || undefined}
          className={`${CELL} ${c.align === 'right' ? 'justify-end tabular-nums' : ''}`}
          style={{ width: c.width }}
        >
          <span className="min-w-0 truncate">{c.cell(row, LL, locale)}</span>
        </div>
      ))}
    </div>
  );
});
