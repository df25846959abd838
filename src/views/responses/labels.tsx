import type { TranslationFunctions } from '../../i18n/i18n-types';
import { useI18nContext } from '../../i18n/i18n-react';
import type { QualityFlagName, RespondentListRow, RespondentStatusName } from '../../api/responses';
import { formatNumber } from '../ui/formatNumber';

// Names, badges and formats the respondents list and its side panel share.

const STATUS_COLORS: Record<RespondentStatusName, string> = {
  inProgress: 'bg-sky-50 text-sky-800 ring-sky-200',
  completed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  screenedOut: 'bg-slate-100 text-slate-700 ring-slate-300',
  quotaFull: 'bg-amber-50 text-amber-900 ring-amber-200',
};

const BADGE =
  'inline-flex shrink-0 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';

export function RespondentStatusBadge({ status }: { status: RespondentStatusName }) {
  const { LL } = useI18nContext();
  return (
    <span data-respondent-status={status} className={`${BADGE} ${STATUS_COLORS[status]}`}>
      {LL.responses.status[status]()}
    </span>
  );
}

/** A flag's name in the reader's language (the API's names have a hyphen; the texts' keys do not). */
export const flagName = (LL: TranslationFunctions, kind: QualityFlagName) =>
  LL.responses.flags[kind === 'straight-liner' ? 'straightLiner' : kind]();

/** A quality flag's name as a badge (its reason goes beside it, in words). */
export function FlagBadge({ kind }: { kind: QualityFlagName }) {
  const { LL } = useI18nContext();
  return (
    <span data-flag={kind} className={`${BADGE} bg-orange-50 text-orange-900 ring-orange-200`}>
      {flagName(LL, kind)}
    </span>
  );
}

export function ExcludedBadge() {
  const { LL } = useI18nContext();
  return (
    <span className={`${BADGE} bg-red-50 text-red-800 ring-red-200`}>{LL.responses.excludedMark()}</span>
  );
}

/** "4 min 12 s", "41 s", "1.4 s" (a page's time, tenths under ten seconds), "1 h 3 min". */
export function durationText(LL: TranslationFunctions, seconds: number | null, locale: string): string {
  if (seconds === null) return '—';
  if (seconds < 10)
    return LL.responses.duration.seconds({
      seconds: formatNumber(Math.max(0, seconds), locale, { maximumFractionDigits: 1 }),
    });
  const s = Math.round(seconds);
  if (s < 60) return LL.responses.duration.seconds({ seconds: String(s) });
  if (s < 3600) return LL.responses.duration.minutes({ minutes: Math.floor(s / 60), seconds: s % 60 });
  return LL.responses.duration.hours({ hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) });
}

/** Gender, age, city and education in one line, what is known of them. */
export function profileText(
  LL: TranslationFunctions,
  locale: string,
  p: RespondentListRow['profile'],
): string {
  const parts: string[] = [];
  if (p.gender === 'male' || p.gender === 'female') parts.push(LL.responses.gender[p.gender]());
  if (p.age !== null) parts.push(LL.responses.age({ age: formatNumber(p.age, locale) }));
  if (p.cityName ?? p.city) parts.push((p.cityName ?? p.city)!);
  const edu = p.education as keyof TranslationFunctions['responses']['education'] | null;
  if (edu && edu in LL.responses.education) parts.push(LL.responses.education[edu]());
  return parts.join(', ') || '—';
}

export const sourceText = (LL: TranslationFunctions, source: RespondentListRow['source']) =>
  LL.responses.source[source]();

const shortDates = new Map<string, Intl.DateTimeFormat>();
/** A date and time short enough for a table cell. */
export function shortDate(locale: string, ms: number | null): string {
  if (ms === null) return '—';
  let f = shortDates.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      day: '2-digit',
      month: '2-digit',
      year: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    shortDates.set(locale, f);
  }
  return f.format(ms);
}

const longDates = new Map<string, Intl.DateTimeFormat>();
/** A date and time in full (the panel). */
export function formatDate(locale: string, ms: number): string {
  let f = longDates.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    longDates.set(locale, f);
  }
  return f.format(ms);
}

/** The message of a failed call (an ApiError's is already translated by the client). */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
