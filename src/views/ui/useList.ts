import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type Page, type Query } from '../../api/client';
import { arrivedEarly, callKey, earlyOr, forgetEarly } from '../../api/early';
import { DEFAULT_PAGE_SIZE, listQuery, type ListSort } from './listQuery';

// One server-paged list (page 1-based, pageSize ≤ 100, search, sort, order; the full count comes in
// X-Total-Count). Each request has its own AbortController and a sequence number, so an answer that
// arrives after a newer request was made is dropped and never overwrites the newer rows.

export type { ListSort, SortOrder } from './listQuery';

export const MAX_PAGE_SIZE = 100;

export interface ListState<T> {
  rows: T[];
  total: number;
  page: number;
  setPage: (page: number) => void;
  sort: ListSort | undefined;
  setSort: (sort: ListSort) => void;
  search: string;
  setSearch: (search: string) => void;
  loading: boolean;
  error: string | null;
  reload: () => void;
  pageSize: number;
}

/** The paging, sorting and state props of a DataTable fed by this list. */
export function tableProps<T>(list: ListState<T>) {
  return {
    rows: list.rows,
    total: list.total,
    page: list.page,
    pageSize: list.pageSize,
    onPageChange: list.setPage,
    sort: list.sort,
    onSortChange: list.setSort,
    loading: list.loading,
    error: list.error,
    onRetry: list.reload,
  };
}

export function useList<T>(
  path: string,
  opts: { pageSize?: number; query?: Query; initialSort?: ListSort } = {},
): ListState<T> {
  const pageSize = Math.min(Math.max(1, opts.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const queryKey = JSON.stringify(opts.query ?? {});
  const [page, setPageState] = useState(1);
  const [sort, setSortState] = useState<ListSort | undefined>(opts.initialSort);
  const [search, setSearchState] = useState('');
  // The first page as the start-up asked for it, when its answer is already here (earlyCalls.ts).
  const [firstKey] = useState(() =>
    callKey(path, listQuery(opts.query ?? {}, { page: 1, pageSize, sort: opts.initialSort })),
  );
  const [arrived] = useState(() => arrivedEarly<Page<T>>(firstKey));
  const [rows, setRows] = useState<T[]>(arrived?.items ?? []);
  const [total, setTotal] = useState(arrived?.total ?? 0);
  const [loading, setLoading] = useState(!arrived);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const seq = useRef(0);
  const skipFirst = useRef(!!arrived);

  // A new filter or search starts again from the first page.
  const firstQuery = useRef(queryKey);
  useEffect(() => {
    if (firstQuery.current !== queryKey) {
      firstQuery.current = queryKey;
      setPageState(1);
    }
  }, [queryKey]);

  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false; // the first page is shown already
      forgetEarly(firstKey);
      return;
    }
    const controller = new AbortController();
    const mine = ++seq.current;
    setLoading(true);
    setError(null);
    const query = listQuery(JSON.parse(queryKey) as Query, { page, pageSize, search, sort });
    // The start-up may have asked for this very page already (earlyCalls.ts).
    earlyOr(callKey(path, query), () => api.list<T>(path, { query, signal: controller.signal }))
      .then(({ items, total: count }) => {
        if (mine !== seq.current) return;
        // Past the end (the last row of the last page was deleted): go to the new last page.
        if (items.length === 0 && count > 0 && page > 1) {
          setPageState(Math.max(1, Math.ceil(count / pageSize)));
          return;
        }
        setRows(items);
        setTotal(count);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (mine !== seq.current || (err instanceof DOMException && err.name === 'AbortError')) return;
        setError(err instanceof Error ? err.message : String(err));
        setLoading(false);
      });
    return () => controller.abort();
  }, [path, queryKey, page, pageSize, search, sort, version, firstKey]);

  const setPage = useCallback((p: number) => setPageState(Math.max(1, Math.floor(p))), []);
  const setSort = useCallback((s: ListSort) => {
    setSortState(s);
    setPageState(1);
  }, []);
  const setSearch = useCallback((s: string) => {
    setSearchState(s);
    setPageState(1);
  }, []);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  return { rows, total, page, setPage, sort, setSort, search, setSearch, loading, error, reload, pageSize };
}
