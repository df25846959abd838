import { useI18nContext } from '../../i18n/i18n-react';
import type { RespondentAnswer } from '../../api/responses';
import { formatNumber } from '../ui/formatNumber';
import { durationText, FlagBadge } from './labels';

// One respondent's answers in questionnaire order: each question with what was picked (as texts),
// the value, the "Other" and open texts, the order the answers were shown in, and the time spent
// on its page as a bar (against the respondent's slowest page) beside the seconds, so the rushed
// pages stand out at a glance.

function Answer({ a, slowest }: { a: RespondentAnswer; slowest: number }) {
  const { LL, locale } = useI18nContext();
  const R = LL.responses.panel;
  const picked = a.picked.map((p) => p.text);
  const hasShown = a.shown.length > 1;
  return (
    <li
      className="flex flex-col gap-1 border-b border-slate-100 py-3 last:border-0"
      data-answer={a.questionId}
    >
      <div className="flex items-start justify-between gap-3">
        <h4 className="min-w-0 break-words text-sm font-medium text-slate-800">
          {R.question({ number: a.number })} {a.text}
        </h4>
        {a.seconds !== null && (
          <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600" data-seconds={a.seconds}>
            <span aria-hidden="true" className="block h-1.5 w-16 overflow-hidden rounded bg-slate-100">
              <span
                className="block h-full rounded bg-indigo-600"
                style={{ width: `${Math.max(4, Math.round((a.seconds / Math.max(1, slowest)) * 100))}%` }}
              />
            </span>
            <span className="tabular-nums">{durationText(LL, a.seconds, locale)}</span>
          </span>
        )}
      </div>
      {a.flagged.length > 0 && (
        <p className="flex flex-wrap gap-1">
          {a.flagged.map((f) => (
            <FlagBadge key={f} kind={f} />
          ))}
        </p>
      )}
      <div className="text-sm text-slate-700">
        {a.ranked && a.ranked.length > 0 ? (
          <ol className="list-decimal pl-5">
            {[...a.ranked]
              .sort((x, y) => x.rank - y.rank)
              .map((r) => (
                <li key={r.id}>{r.text}</li>
              ))}
          </ol>
        ) : a.cells && a.cells.length > 0 ? (
          <dl className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-x-3 gap-y-0.5">
            {a.cells.map((c) => (
              <div key={c.statementId} className="contents">
                <dt className="text-slate-600">{c.statement}</dt>
                <dd className="font-medium text-slate-800">{c.answer}</dd>
              </div>
            ))}
          </dl>
        ) : picked.length > 0 ? (
          <ul className="list-disc pl-5">
            {picked.map((t, i) => (
              <li key={i} className="font-medium text-slate-800">
                {t}
              </li>
            ))}
          </ul>
        ) : null}
        {a.value !== undefined && a.value !== null && (
          <p>
            {R.value()}:{' '}
            <span className="font-medium tabular-nums text-slate-800">{formatNumber(a.value, locale)}</span>
          </p>
        )}
        {a.other && (
          <p>
            {R.other()}: <q className="font-medium text-slate-800">{a.other}</q>
          </p>
        )}
        {a.written && (
          <blockquote className="whitespace-pre-wrap break-words border-l-2 border-slate-300 pl-2 text-slate-800">
            {a.written}
          </blockquote>
        )}
        {a.place && <p className="font-medium text-slate-800">{a.place.name}</p>}
        {picked.length === 0 &&
          !a.ranked?.length &&
          !a.cells?.length &&
          (a.value === undefined || a.value === null) &&
          !a.other &&
          !a.written &&
          !a.place && <p className="text-slate-600">{R.noAnswer()}</p>}
      </div>
      {hasShown && (
        <p className="text-xs text-slate-600">
          {R.shownOrder()}: {a.shown.map((s) => s.text).join(' · ')}
        </p>
      )}
    </li>
  );
}

export function AnswerList({ answers }: { answers: RespondentAnswer[] }) {
  const slowest = Math.max(0, ...answers.map((a) => a.seconds ?? 0));
  return (
    <ol className="flex flex-col" data-answers>
      {answers.map((a) => (
        <Answer key={a.questionId} a={a} slowest={slowest} />
      ))}
    </ol>
  );
}
