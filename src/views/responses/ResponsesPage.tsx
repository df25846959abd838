import { lazy, Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { listRespondents, type RespondentFilters } from '../../api/responses';
import {
  RESPONDENT_MANAGERS,
  RESPONDENTS_PAGE_SIZE_MAX,
  type RespondentListRow,
  type RespondentSort,
} from '../../domain/responses';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button } from '../ui/Button';
import { formatNumber } from '../ui/formatNumber';
import { filtersFromSearch, isFiltered, NO_CHOICES, searchWith, sortFromSearch } from './filters';
import { FilterBar } from './FilterBar';
import { RespondentTable } from './RespondentTable';
import { RowCache } from './rowCache';
import { NOTHING, selectedCount, targetOf, toggle, type Selection } from './selection';
import { SelectionBar } from './SelectionBar';
import { Downloads } from './Downloads';
import { useProjectFacts } from './useProjectFacts';
import { useRespondentActions } from './useRespondentActions';

// /responses?pid=… (issue 31): a project's respondents one by one. The filters (the report's and
// the list's own) and the sort live in the address, so a copied link opens the same list. The rows
// come a server page at a time into a virtual table (RowCache, RespondentTable), so 100 000 of
// them scroll as smoothly as 100. A row opens in the side panel; those who may change the project
// select rows, or everyone the filter matches, and exclude or restore them with a reason, or erase
// one. The filtered list downloads as XLSX or CSV. Decisions: docs/decisions/responses.md.

const PAGE_SIZE = Math.min(100, RESPONDENTS_PAGE_SIZE_MAX);

// The panel (and the answers' rendering) loads with the first respondent opened, asked for as soon
// as the reader points at or moves into the table, so the page's own script stays small.
const loadPanel = () => import('./RespondentPanel');
const RespondentPanel = lazy(loadPanel);
const panelFallback = (
  <div className="fixed inset-0 z-40 bg-white lg:static lg:h-full lg:w-[30rem] lg:shrink-0 lg:rounded-lg lg:border lg:border-slate-200" />
);

function Responses({ pid }: { pid: number }) {
  const { LL, locale } = useI18nContext();
  const R = LL.responses;
  const me = useCurrentUser();
  const [, navigate] = useLocation();
  const [filters, setFilters] = useState<RespondentFilters>(() => filtersFromSearch(window.location.search));
  const [sort, setSort] = useState<RespondentSort>(() => sortFromSearch(window.location.search));
  const [selection, setSelection] = useState<Selection>(NOTHING);
  const [active, setActive] = useState(-1);
  const [panelOpen, setPanelOpen] = useState(false);
  const [nonce, setNonce] = useState(0);

  const filtersKey = JSON.stringify(filters);
  const cache = useMemo(
    () =>
      new RowCache<RespondentListRow>({
        pageSize: PAGE_SIZE,
        fetchPage: (page, signal) =>
          listRespondents(
            { pid, filters: JSON.parse(filtersKey) as RespondentFilters, page, pageSize: PAGE_SIZE, sort },
            signal,
          ),
      }),
    [pid, filtersKey, sort],
  );
  useEffect(() => () => cache.dispose(), [cache]);
  // The page follows the count and a failure only; the table follows the rows (RespondentTable).
  const knownTotal = useSyncExternalStore(cache.subscribe, () => cache.getSnapshot().total);
  const error = useSyncExternalStore(cache.subscribe, () => cache.getSnapshot().error);
  const total = knownTotal ?? 0;
  const facts = useProjectFacts(pid, knownTotal !== null, locale);
  // The server's rule (canManageRespondents): the page is open, so the project is readable.
  const canChange = !!me && RESPONDENT_MANAGERS.includes(me.role.id);

  useEffect(() => {
    document.title = facts ? R.titleOf({ name: facts.name }) : R.title();
  }, [facts, R]);

  const setAddress = useCallback(
    (patch: { filters?: RespondentFilters; sort?: string }) =>
      navigate(`/responses?${searchWith(window.location.search, patch)}`, { replace: true }),
    [navigate],
  );
  const changeFilters = (f: RespondentFilters) => {
    setFilters(f);
    setSelection(NOTHING);
    setActive(-1);
    setPanelOpen(false);
    setAddress({ filters: f });
  };
  const changeSort = useCallback(
    (s: RespondentSort) => {
      setSort(s);
      setActive(-1);
      setPanelOpen(false);
      setAddress({ sort: s });
    },
    [setAddress],
  );
  const toggleOne = useCallback((id: number) => setSelection((s) => toggle(s, id)), []);

  // After a change the server accepted: every page again, and the open respondent.
  const changed = useCallback(() => {
    setSelection(NOTHING);
    setNonce((n) => n + 1);
    cache.refresh();
  }, [cache]);
  const actions = useRespondentActions(pid, changed);

  const onActive = useCallback((index: number, open: boolean) => {
    setActive(index);
    if (open) setPanelOpen(true);
  }, []);
  const move = useCallback(
    (delta: number) => setActive((a) => Math.max(0, Math.min(total - 1, a + delta))),
    [total],
  );
  const close = useCallback(() => {
    setPanelOpen(false);
    // Back to the row the panel showed.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-index="${active}"] [data-open-row]`)?.focus(),
    );
  }, [active]);

  const activeRow = active >= 0 ? cache.rowAt(active) : undefined;
  const filtered = isFiltered(filters);

  return (
    <section className="flex flex-col gap-3 p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="break-words text-xl font-semibold text-slate-800 sm:text-2xl">
            {facts ? R.titleOf({ name: facts.name }) : R.title()}
          </h1>
          <p className="mt-1 text-sm text-slate-600" aria-live="polite" data-total={knownTotal ?? ''}>
            {knownTotal === null
              ? LL.common.loading()
              : filtered
                ? R.countFiltered({ count: formatNumber(total, locale) })
                : R.count({ count: formatNumber(total, locale) })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={`/report?pid=${pid}`}
            className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            {R.toReport()}
          </Link>
          <Button variant="secondary" onClick={changed}>
            {R.refresh()}
          </Button>
          <Downloads pid={pid} filters={filters} disabled={total === 0} />
        </div>
      </div>

      <FilterBar value={filters} choices={facts ?? NO_CHOICES} onChange={changeFilters} />

      {canChange && total > 0 && (
        <SelectionBar
          selection={selection}
          total={total}
          filters={filters}
          onSelection={setSelection}
          onExclude={(excluded) =>
            void actions.setExcluded(targetOf(selection), selectedCount(selection), excluded)
          }
        />
      )}

      {error && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md bg-red-50 p-3 text-sm text-red-800"
        >
          <span>
            {LL.common.table.loadFailed()}: {error}
          </span>
          <Button variant="secondary" onClick={() => cache.refresh()}>
            {LL.common.retry()}
          </Button>
        </div>
      )}

      <div className="flex h-[max(24rem,calc(100dvh-9rem))] min-h-0 gap-4">
        <div className="min-w-0 flex-1" onPointerOver={preloadPanel} onFocus={preloadPanel}>
          {knownTotal === 0 ? (
            <div
              className="flex h-full items-center justify-center rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center"
              data-empty
            >
              <p className="text-slate-700">{filtered ? R.noMatch() : R.nobody()}</p>
            </div>
          ) : (
            <RespondentTable
              cache={cache}
              total={total}
              caption={R.caption()}
              active={active}
              panelOpen={panelOpen}
              onActive={onActive}
              selectable={canChange}
              selection={selection}
              onToggle={toggleOne}
              sort={sort}
              onSort={changeSort}
            />
          )}
        </div>
        {panelOpen && active >= 0 && (
          <Suspense fallback={panelFallback}>
            <RespondentPanel
              pid={pid}
              row={activeRow}
              index={active}
              total={total}
              nonce={nonce}
              canChange={canChange}
              actions={{
                exclude: (row) => void actions.setExcluded({ ids: [row.id] }, 1, true),
                restore: (row) => void actions.setExcluded({ ids: [row.id] }, 1, false),
                erase: (row) => void actions.erase(row),
              }}
              onMove={move}
              onClose={close}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}

let panelAsked = false;
function preloadPanel() {
  if (panelAsked) return;
  panelAsked = true;
  void loadPanel().catch(() => (panelAsked = false));
}

export default function ResponsesPage() {
  const { LL } = useI18nContext();
  const pid = Number(new URLSearchParams(useSearch()).get('pid'));
  if (!Number.isInteger(pid) || pid < 1 || pid > 2_147_483_647) {
    return (
      <section className="p-8">
        <h1 className="text-2xl font-semibold text-slate-800">{LL.responses.title()}</h1>
        <p role="alert" className="mt-2 text-slate-700">
          {LL.responses.missingPid()}
        </p>
      </section>
    );
  }
  return <Responses key={pid} pid={pid} />;
}
