import type { Query } from '../../api/client';

// The query of one page of a server-paged list, apart from useList.ts so that the start-up's early
// call (views/shell/earlyCalls.ts) asks exactly what useList asks, without the hook.

export type SortOrder = 'asc' | 'desc';
export interface ListSort {
  key: string;
  order: SortOrder;
}

export const DEFAULT_PAGE_SIZE = 20;

/** The query of one page of a list, as useList asks for it (the start-up's early call asks the same). */
export function listQuery(
  query: Query,
  at: { page: number; pageSize: number; search?: string; sort?: ListSort },
): Query {
  return {
    ...query,
    page: at.page,
    pageSize: at.pageSize,
    search: at.search || undefined,
    sort: at.sort?.key,
    order: at.sort?.order,
  };
}
