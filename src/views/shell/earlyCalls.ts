import { api } from '../../api/client';
import { callKey, startEarly } from '../../api/early';
import { PROJECTS_PATH } from '../../api/projectsPath';
import { readAuth, readCachedUser } from '../../api/storage';
import { pageAllowed } from '../../domain/menu';
import { reportQuery, STATS_PATH } from '../../api/reportQuery';
import type { ReportJson } from '../../domain/reports';
import { DEFAULT_PAGE_SIZE, listQuery } from '../ui/listQuery';
import { PROJECTS_SORT } from '../projects/listDefaults';
import { loadAppConfig } from './appConfig';
import type { AppRoute } from '../routes';

// The opened page's first calls, started by the start-up beside the sign-in's restore when someone
// is signed in here (issue 25, Lighthouse on the signed-in pages): the page then finds its answer
// arrived or on its way (api/early.ts) instead of asking only after its chunk, its dictionary and
// the layout's first render. Each call has the key the page asks with; a page that asks otherwise
// asks the server as before. The calls are quiet: a refusal (this role may not see the page) is the
// page's own call's to report, as before.

const PAGE_CALLS: Record<string, () => void> = {
  '/projects': () => {
    const query = listQuery({}, { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: PROJECTS_SORT });
    startEarly(callKey(PROJECTS_PATH, query), () => api.list(PROJECTS_PATH, { query, quiet: true }));
  },
  '/report': () => {
    // Only the report as opened from the list (no filters in the address); with filters the page asks.
    const params = new URLSearchParams(location.search);
    const pid = Number(params.get('pid'));
    if ([...params.keys()].join() !== 'pid' || !Number.isInteger(pid) || pid < 1 || pid > 999_999_999) return;
    const query = reportQuery(pid, {});
    startEarly(callKey(STATS_PATH, query), () => api.get<ReportJson>(STATS_PATH, { query, quiet: true }));
  },
};

export function startPageCalls(route: Pick<AppRoute, 'path' | 'layout'>): void {
  if (route.layout === 'main') void loadAppConfig();
  // A page the signed-in user's role may not open shows "not available" and asks nothing: its call
  // would only be refused (a 403 the browser logs). Unknown until the user has been read once here.
  const auth = readAuth();
  const user = auth && readCachedUser<{ id: number; role: { id: number } }>(auth.userId);
  if (user && !pageAllowed(route.path, user.role.id)) return;
  PAGE_CALLS[route.path]?.();
}

/**
 * The first Intl.DateTimeFormat of a page costs ≈ 30 ms (ICU's data for the locale; later ones reuse
 * it): the lists and the report format dates in their first render. Done by the start-up while it
 * waits for the network, so it is not part of the page's first long task; the date and the number
 * formats in two tasks, each then shorter than a long task (50 ms) on Lighthouse's slowed-down phone
 * (one task of both was 70 ms there).
 */
export function warmFormats(locale: string): void {
  setTimeout(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(0), 0);
  setTimeout(() => new Intl.NumberFormat(locale).format(1.5), 0);
}
