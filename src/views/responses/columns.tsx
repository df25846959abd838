import type { ReactNode } from 'react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { RespondentListRow, RespondentSort } from '../../api/responses';
import {
  durationText,
  ExcludedBadge,
  FlagBadge,
  profileText,
  RespondentStatusBadge,
  shortDate,
  sourceText,
} from './labels';

// The list's columns as data, in the order a reader judging quality wants them (what happened, how
// long, the flags and the exclusion first; who and where after): header, fixed width (the table is
// laid out once, never measured from its rows), the cell, the text a cell's tooltip gives in full,
// and the sort it offers.

export interface RespondentColumn {
  key: string;
  header: (LL: TranslationFunctions) => string;
  width: number;
  cell: (row: RespondentListRow, LL: TranslationFunctions, locale: string) => ReactNode;
  /** The cell's whole text when it may be cut (a tooltip). */
  full?: (row: RespondentListRow, LL: TranslationFunctions, locale: string) => string;
  /** The sort field (`started` sorts by `-started` / `started`). */
  sort?: 'started' | 'finished' | 'duration' | 'id';
  align?: 'right';
}

const dash = (s: string | null | undefined) => s || '—';

function exclusionFull(row: RespondentListRow, LL: TranslationFunctions, locale: string): string {
  const e = row.exclusion;
  if (!e) return '';
  return LL.responses.exclusionBy({
    reason: e.reason,
    who: e.author.fullname || e.author.email,
    time: shortDate(locale, e.at),
  });
}

export const COLUMNS: readonly RespondentColumn[] = [
  {
    key: 'status',
    header: (LL) => LL.responses.columns.status(),
    width: 136,
    cell: (r) => <RespondentStatusBadge status={r.status} />,
  },
  {
    key: 'duration',
    header: (LL) => LL.responses.columns.duration(),
    width: 150,
    sort: 'duration',
    align: 'right',
    cell: (r, LL, locale) => durationText(LL, r.durationSeconds, locale),
  },
  {
    key: 'flags',
    header: (LL) => LL.responses.columns.flags(),
    width: 300,
    cell: (r) =>
      r.flags.length === 0 ? (
        '—'
      ) : (
        // A flex row as wide as the cell, so the reason is cut with an ellipsis.
        <span className="flex min-w-0 items-center gap-1">
          {r.flags.map((f, i) => (
            <FlagBadge key={`${f.name}-${i}`} kind={f.name} />
          ))}
          {/* The reason in words: cut to the cell, whole in the tooltip and for screen readers. */}
          {r.flags.length === 1 ? (
            <span className="min-w-0 truncate text-slate-700">{r.flags[0].reason}</span>
          ) : (
            <span className="sr-only">{r.flags.map((f) => f.reason).join('. ')}</span>
          )}
        </span>
      ),
    full: (r) => r.flags.map((f) => f.reason).join('\n'),
  },
  {
    key: 'exclusion',
    header: (LL) => LL.responses.columns.exclusion(),
    width: 260,
    cell: (r) =>
      r.exclusion ? (
        <span className="flex min-w-0 items-center gap-1">
          <ExcludedBadge />
          <span className="min-w-0 truncate text-slate-700">{r.exclusion.reason}</span>
        </span>
      ) : (
        '—'
      ),
    full: exclusionFull,
  },
  {
    key: 'started',
    header: (LL) => LL.responses.columns.started(),
    width: 170,
    sort: 'started',
    cell: (r, _LL, locale) => shortDate(locale, r.startedAt),
  },
  {
    key: 'finished',
    header: (LL) => LL.responses.columns.finished(),
    width: 170,
    sort: 'finished',
    cell: (r, _LL, locale) => shortDate(locale, r.finishedAt),
  },
  {
    key: 'portrait',
    header: (LL) => LL.responses.columns.portrait(),
    width: 150,
    cell: (r) => dash(r.portrait?.name || r.portrait?.id),
    full: (r) => r.portrait?.name ?? '',
  },
  {
    key: 'profile',
    header: (LL) => LL.responses.columns.profile(),
    width: 240,
    cell: (r, LL, locale) =>
      r.erasedAt !== null ? LL.responses.erased() : profileText(LL, locale, r.profile),
    full: (r, LL, locale) => profileText(LL, locale, r.profile),
  },
  {
    key: 'source',
    header: (LL) => LL.responses.columns.source(),
    // "Источник" in capitals.
    width: 110,
    cell: (r, LL) => sourceText(LL, r.source),
  },
  {
    key: 'game',
    header: (LL) => LL.responses.columns.game(),
    width: 150,
    cell: (r) => dash(r.game?.name),
    full: (r) => r.game?.name ?? '',
  },
];

/** The sort a header's click asks for: its own field, the other way round when it is the current one. */
export function nextSort(
  current: RespondentSort,
  field: NonNullable<RespondentColumn['sort']>,
): RespondentSort {
  if (current === `-${field}`) return field as RespondentSort;
  return `-${field}` as RespondentSort;
}

export function ariaSort(current: RespondentSort, field: RespondentColumn['sort']) {
  if (!field) return undefined;
  if (current === field) return 'ascending' as const;
  if (current === `-${field}`) return 'descending' as const;
  return 'none' as const;
}
