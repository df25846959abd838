import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { HISTORY_LIMIT_DEFAULT, type HistoryEntry } from '../../domain/history';
import { getHistory, getHistoryChapters } from '../../api/history';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button } from '../ui/Button';
import { AdminOnly } from '../users/AdminOnly';
import { formatDateTime } from '../users/labels';

// /history (spec sections 2, 7): the log, newest first. Pages are fetched by time (`upto` = the
// oldest entry shown, plus its id for entries of the same millisecond) as the end of the list
// scrolls into view; a button does the same for keyboards. Filters: chapter and email.

/** How close to the end of the list (in pixels) the next page is fetched. */
const PREFETCH_PX = 300;

function chapterName(LL: TranslationFunctions, chapter: string): string {
  const fn = (LL.people.history.chapters as Record<string, (() => string) | undefined>)[chapter];
  return typeof fn === 'function' ? fn() : chapter;
}

/** `upto` for a day picked in the filter: entries before the next local midnight. */
function endOfDay(day: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const next = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime();
  return Number.isFinite(next) && next > 0 ? next : undefined;
}

function todayInput(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

interface Feed {
  entries: HistoryEntry[];
  loading: boolean;
  error: string | null;
  done: boolean;
}

function useHistoryFeed(filters: { chapter: string; email: string; upto?: number }) {
  const [feed, setFeed] = useState<Feed>({ entries: [], loading: true, error: null, done: false });
  const latest = useRef(feed);
  useEffect(() => {
    latest.current = feed;
  }, [feed]);
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);

  const load = useCallback(
    (reset: boolean) => {
      const current = latest.current;
      if (!reset && (current.loading || current.done)) return;
      controller.current?.abort();
      const mine = reset ? ++generation.current : generation.current;
      const ctl = new AbortController();
      controller.current = ctl;
      const last = reset ? undefined : current.entries[current.entries.length - 1];
      setFeed((f) => ({ ...(reset ? { entries: [], done: false } : f), loading: true, error: null }) as Feed);
      getHistory(
        {
          limit: HISTORY_LIMIT_DEFAULT,
          upto: last?.date ?? filters.upto,
          uptoId: last?.id,
          chapter: filters.chapter || undefined,
          email: filters.email || undefined,
        },
        ctl.signal,
      ).then(
        (page) => {
          if (mine !== generation.current) return;
          setFeed((f) => ({
            entries: reset ? page : [...f.entries, ...page],
            loading: false,
            error: null,
            done: page.length < HISTORY_LIMIT_DEFAULT,
          }));
        },
        (err: unknown) => {
          if (mine !== generation.current || (err instanceof DOMException && err.name === 'AbortError'))
            return;
          setFeed((f) => ({ ...f, loading: false, error: err instanceof Error ? err.message : String(err) }));
        },
      );
    },
    [filters.chapter, filters.email, filters.upto],
  );

  useEffect(() => {
    load(true);
    return () => controller.current?.abort();
  }, [load]);

  const loadMore = useCallback(() => load(false), [load]);
  const retry = useCallback(() => load(latest.current.entries.length === 0), [load]);
  return { ...feed, loadMore, retry };
}

function HistoryTable() {
  const { LL, locale } = useI18nContext();
  const [chapter, setChapter] = useState('');
  const [email, setEmail] = useState('');
  const [chapters, setChapters] = useState<string[]>([]);
  const [day, setDay] = useState('');
  const feed = useHistoryFeed({ chapter, email, upto: endOfDay(day) });
  const sentinel = useRef<HTMLDivElement>(null);
  const chapterId = useId();
  const dayId = useId();

  useEffect(() => {
    getHistoryChapters().then(setChapters, () => {});
  }, []);

  // Load the next page while the end of the list is in view: when it scrolls in, and again after a
  // page that was too short to push it out of view.
  const [atEnd, setAtEnd] = useState(false);
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const observer = new IntersectionObserver((items) => setAtEnd(items.some((i) => i.isIntersecting)), {
      rootMargin: `${PREFETCH_PX}px`,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const { loadMore, loading, done, error } = feed;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !atEnd || loading || done || error) return;
    // The observer's last report may predate the rows just added: check the real position.
    const box = el.getBoundingClientRect();
    if (box.top <= window.innerHeight + PREFETCH_PX && box.bottom >= -PREFETCH_PX) loadMore();
  }, [atEnd, loading, done, error, loadMore]);

  const chapterChoices = [...new Set([...chapters, ...(chapter ? [chapter] : [])])].sort((a, b) =>
    chapterName(LL, a).localeCompare(chapterName(LL, b), locale),
  );

  return (
    <section className="p-6">
      <PageHeader title={LL.people.history.title()} />
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={chapterId} className="text-sm font-medium text-slate-700">
            {LL.people.history.filterChapter()}
          </label>
          <select
            id={chapterId}
            value={chapter}
            onChange={(e) => setChapter(e.target.value)}
            className="w-56 rounded border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            <option value="">{LL.people.history.allChapters()}</option>
            {chapterChoices.map((c) => (
              <option key={c} value={c}>
                {chapterName(LL, c)}
              </option>
            ))}
          </select>
        </div>
        <SearchBox
          label={LL.people.history.filterEmail()}
          value={email}
          onChange={(v) => setEmail(v.trim())}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={dayId} className="text-sm font-medium text-slate-700">
            {LL.people.history.filterUpto()}
          </label>
          <input
            id={dayId}
            type="date"
            value={day}
            max={todayInput()}
            onChange={(e) => setDay(e.target.value)}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm"
          />
        </div>
      </div>
      <div
        className="overflow-hidden rounded-lg border border-slate-200 bg-white"
        aria-busy={feed.loading || undefined}
      >
        {/* Focusable so keyboard users can scroll a table wider than the screen. */}
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={LL.people.history.title()}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{LL.people.history.title()}</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.date()}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.email()}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.organization()}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.chapter()}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.service()}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.people.history.message()}
                </th>
              </tr>
            </thead>
            <tbody>
              {feed.entries.map((e) => (
                <tr key={e.id} className="border-t border-slate-100 align-top">
                  <td className="whitespace-nowrap px-4 py-2 text-slate-600">
                    {formatDateTime(locale, e.date)}
                  </td>
                  <td className="px-4 py-2">{e.email || '—'}</td>
                  <td className="px-4 py-2">{e.organization || '—'}</td>
                  <td className="px-4 py-2">{chapterName(LL, e.chapter)}</td>
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-600">
                    {e.service}
                  </td>
                  <td className="px-4 py-2 text-slate-800">{e.message}</td>
                </tr>
              ))}
              {!feed.loading && !feed.error && feed.entries.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-4 py-8 text-center text-slate-600">
                    {LL.people.history.empty()}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <div
          ref={sentinel}
          className="flex flex-col items-center gap-2 border-t border-slate-200 px-4 py-3 text-sm text-slate-600"
        >
          {feed.loading && (
            <div role="status" className="flex w-full flex-col items-center gap-2">
              {LL.people.history.loadingMore()}
              <div
                role="progressbar"
                aria-label={LL.people.history.loadingMore()}
                className="h-1 w-48 overflow-hidden rounded bg-indigo-100"
              >
                <div className="h-full w-1/3 animate-pulse bg-indigo-700" />
              </div>
            </div>
          )}
          {feed.error && (
            <>
              <p role="alert" className="text-red-800">
                {feed.error}
              </p>
              <Button variant="secondary" onClick={feed.retry}>
                {LL.common.retry()}
              </Button>
            </>
          )}
          {!feed.loading && !feed.error && feed.done && feed.entries.length > 0 && (
            <span>{LL.people.history.end()}</span>
          )}
          {!feed.loading && !feed.error && !feed.done && (
            <Button variant="secondary" onClick={feed.loadMore}>
              {LL.people.history.loadMore()}
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}

export default function HistoryPage() {
  return (
    <AdminOnly>
      <HistoryTable />
    </AdminOnly>
  );
}
