import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { getRespondent, type RespondentDetail, type RespondentListRow } from '../../api/responses';
import { Button, IconButton } from '../ui/Button';
import { ChevronIcon, CloseIcon } from '../ui/icons';
import { formatNumber } from '../ui/formatNumber';
import { errorMessage, formatDate } from './labels';
import { AnswerList } from './AnswerList';
import { languageName } from '../../domain/content/languages';
import {
  durationText,
  ExcludedBadge,
  FlagBadge,
  profileText,
  RespondentStatusBadge,
  sourceText,
} from './labels';

// One respondent in a panel beside the list (over it, on a phone): who they are, their flags with
// the reasons, their exclusion, and their answers (AnswerList). J and K (or the arrows on the list)
// go to the next and previous respondent of the list, Escape closes. On a narrow screen the panel
// covers the page, so it is a modal dialog there and keeps the focus inside.

export interface PanelActions {
  exclude: (row: RespondentListRow) => void;
  restore: (row: RespondentListRow) => void;
  erase: (row: RespondentListRow) => void;
}

type Load =
  | { state: 'loading'; detail: RespondentDetail | null }
  | { state: 'ready'; detail: RespondentDetail }
  | { state: 'failed'; message: string };

function useNarrow(): boolean {
  const query = '(max-width: 1023px)';
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setNarrow(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return narrow;
}

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

function Fact({ term, children, wide }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`flex flex-col ${wide ? 'col-span-2' : ''}`}>
      <dt className="text-xs text-slate-600">{term}</dt>
      <dd className="break-words text-sm text-slate-800">{children}</dd>
    </div>
  );
}

export default function RespondentPanel({
  pid,
  row,
  index,
  total,
  nonce,
  canChange,
  actions,
  onMove,
  onClose,
}: {
  pid: number;
  /** The row as the list has it (shown at once); undefined while its page loads. */
  row: RespondentListRow | undefined;
  index: number;
  total: number;
  /** Bumped after a change to the respondent: read them again. */
  nonce: number;
  canChange: boolean;
  actions: PanelActions;
  onMove: (delta: number) => void;
  onClose: () => void;
}) {
  const { LL, locale } = useI18nContext();
  const P = LL.responses.panel;
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const narrow = useNarrow();
  const id = row?.id;
  const [load, setLoad] = useState<Load>({ state: 'loading', detail: null });

  useEffect(() => {
    if (id === undefined) return;
    const ac = new AbortController();
    setLoad((l) => ({
      state: 'loading',
      detail: l.state === 'ready' && l.detail.respondent.id === id ? l.detail : null,
    }));
    getRespondent(pid, id, ac.signal)
      .then((detail) => !ac.signal.aborted && setLoad({ state: 'ready', detail }))
      .catch((err: unknown) => {
        if (!ac.signal.aborted) setLoad({ state: 'failed', message: errorMessage(err) });
      });
    return () => ac.abort();
  }, [pid, id, nonce]);

  // A phone's panel takes the focus when it opens (the list is under it).
  useEffect(() => {
    if (narrow) heading.current?.focus();
  }, [narrow]);

  // J / K and Escape from anywhere on the page while the panel is open (not while typing, not
  // when a dialog above has taken the key).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]:not([data-respondent-panel])')) return;
      if (e.key === 'j' || e.key === 'J') onMove(1);
      else if (e.key === 'k' || e.key === 'K') onMove(-1);
      else if (e.key === 'Escape') onClose();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onMove, onClose]);

  // Tab stays inside the panel while it covers the page.
  const trap = (e: KeyboardEvent) => {
    if (!narrow || e.key !== 'Tab' || !panel.current) return;
    const all = [
      ...panel.current.querySelectorAll<HTMLElement>(
        'button:not([disabled]), a[href], [tabindex="0"], h2[tabindex]',
      ),
    ];
    if (all.length === 0) return;
    const first = all[0];
    const last = all[all.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const detail = load.state === 'failed' ? null : load.detail;
  const r = detail && detail.respondent.id === id ? detail.respondent : row;

  return (
    <aside
      ref={panel}
      aria-labelledby={titleId}
      role={narrow ? 'dialog' : 'complementary'}
      aria-modal={narrow || undefined}
      data-respondent-panel
      onKeyDown={trap}
      className="fixed inset-0 z-40 flex flex-col overflow-hidden bg-white lg:static lg:z-auto lg:h-full lg:w-[30rem] lg:shrink-0 lg:rounded-lg lg:border lg:border-slate-200"
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <div className="min-w-0">
          <h2
            ref={heading}
            id={titleId}
            tabIndex={-1}
            className="text-lg font-semibold text-slate-800 focus:outline-none"
          >
            {r ? P.title({ id: r.id }) : LL.common.loading()}
          </h2>
          <p className="text-xs text-slate-600" aria-live="polite">
            {P.position({ n: formatNumber(index + 1, locale), total: formatNumber(total, locale) })}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <IconButton
            label={P.previous()}
            aria-keyshortcuts="K"
            disabled={index <= 0}
            onClick={() => onMove(-1)}
          >
            <ChevronIcon className="h-4 w-4 -rotate-90" />
          </IconButton>
          <IconButton
            label={P.next()}
            aria-keyshortcuts="J"
            disabled={index >= total - 1}
            onClick={() => onMove(1)}
          >
            <ChevronIcon className="h-4 w-4 rotate-90" />
          </IconButton>
          <IconButton label={LL.common.close()} aria-keyshortcuts="Escape" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </div>
      </div>

      <div className="flex-1 overflow-y-auto px-4 py-3" data-panel-body>
        {!r ? (
          <p className="text-sm text-slate-600">{LL.common.loading()}</p>
        ) : (
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-2 gap-3">
              <Fact term={P.status()}>
                <RespondentStatusBadge status={r.status} />
              </Fact>
              <Fact term={P.source()}>
                {sourceText(LL, r.source)}
                {r.game ? ` · ${r.game.name}` : ''}
              </Fact>
              <Fact term={P.started()}>{formatDate(locale, r.startedAt)}</Fact>
              <Fact term={P.finished()}>
                {r.finishedAt === null ? '—' : formatDate(locale, r.finishedAt)}
              </Fact>
              <Fact term={P.duration()}>{durationText(LL, r.durationSeconds, locale)}</Fact>
              <Fact term={P.portrait()}>{r.portrait ? r.portrait.name || r.portrait.id : '—'}</Fact>
              {r.language && <Fact term={P.language()}>{languageName(r.language, locale)}</Fact>}
              <Fact term={P.profile()} wide>
                {r.erasedAt !== null ? LL.responses.erased() : profileText(LL, locale, r.profile)}
              </Fact>
            </dl>

            {r.flags.length > 0 && (
              <section aria-label={P.flags()} className="rounded-md bg-orange-50 p-3">
                <h3 className="mb-1 text-sm font-semibold text-orange-900">{P.flags()}</h3>
                <ul className="flex flex-col gap-1 text-sm text-slate-800">
                  {r.flags.map((f, i) => (
                    <li key={i} className="flex flex-wrap items-baseline gap-2">
                      <FlagBadge kind={f.name} />
                      <span>{f.reason}</span>
                    </li>
                  ))}
                </ul>
              </section>
            )}

            {r.exclusion && (
              <section aria-label={P.exclusion()} className="rounded-md bg-red-50 p-3 text-sm text-slate-800">
                <p className="mb-1 flex items-center gap-2">
                  <ExcludedBadge />
                  <span className="text-xs text-slate-700">
                    {P.excludedBy({
                      who: r.exclusion.author.fullname || r.exclusion.author.email,
                      time: formatDate(locale, r.exclusion.at),
                    })}
                  </span>
                </p>
                <p className="break-words">{r.exclusion.reason}</p>
              </section>
            )}

            {canChange && r.erasedAt === null && (
              <div className="flex flex-wrap gap-2">
                {r.exclusion ? (
                  <Button variant="secondary" onClick={() => actions.restore(r)}>
                    {P.restore()}
                  </Button>
                ) : (
                  // Only a respondent who has finished can be excluded (the server's rule).
                  r.status !== 'inProgress' && (
                    <Button variant="secondary" onClick={() => actions.exclude(r)}>
                      {P.exclude()}
                    </Button>
                  )
                )}
                <Button
                  variant="ghost"
                  className="text-red-800 hover:bg-red-50"
                  onClick={() => actions.erase(r)}
                >
                  {P.erase()}
                </Button>
              </div>
            )}

            <section aria-labelledby={`${titleId}-answers`}>
              <h3 id={`${titleId}-answers`} className="text-base font-semibold text-slate-800">
                {P.answers()}
              </h3>
              {load.state === 'failed' ? (
                <p role="alert" className="text-sm text-red-800">
                  {load.message}
                </p>
              ) : !detail || detail.respondent.id !== r.id ? (
                <p className="text-sm text-slate-600">{LL.common.loading()}</p>
              ) : detail.answers.length === 0 ? (
                <p className="text-sm text-slate-600">
                  {r.erasedAt !== null ? LL.responses.erased() : P.noAnswers()}
                </p>
              ) : (
                <>
                  {!detail.pageTimes && <p className="mt-1 text-xs text-slate-600">{P.noPageTimes()}</p>}
                  <AnswerList answers={detail.answers} />
                </>
              )}
            </section>
          </div>
        )}
      </div>
    </aside>
  );
}
