import { useEffect, useMemo, useRef, useState } from 'react';
import { CATEGORY_RULES } from '../../domain/content/categories';
import type { ProjectContent } from '../../domain/content/model';
import {
  checkReply,
  runFlow,
  type FlowStart,
  type Page,
  type Reply,
  type ReplyEntry,
} from '../../domain/flow';
import { Choice } from './Choice';
import { OpenAnswer } from './OpenAnswer';
import { Matrix } from './Matrix';
import { Place, type FindPlaces } from './Place';
import { Ranking } from './Ranking';
import { Scale } from './Scales';
import { useTexts } from './Texts';
import type { SurveyTexts } from '../../i18n/survey';

// The runner: one page (question) at a time, as the flow says, for respondents and for the editor's
// preview alike. It keeps the replies so far; `submit` stores a page (the server, or nothing in the
// preview) and says how the survey stands afterwards.

export type EndKind = 'completed' | 'screenedOut' | 'quotaFull' | 'noMatch';
export type SubmitAnswer = { ok: true; end: EndKind | null } | { ok: false; message: string };

interface Props {
  content: ProjectContent;
  start: FlowStart;
  initialReplies: ReplyEntry[];
  submit: (at: number, questionId: string, reply: Reply) => Promise<SubmitAnswer>;
  findPlaces: FindPlaces;
  onEnd: (end: EndKind) => void;
}

type Draft = Reply & { label?: string };

function problemText(s: SurveyTexts, p: NonNullable<ReturnType<typeof checkReply>>): string {
  switch (p.code) {
    case 'tooFew':
      return s.tooFew(p.min);
    case 'tooMany':
      return s.tooMany(p.max);
    case 'outOfRange':
      return s.outOfRange(p.min, p.max);
    case 'tooShort':
      return s.tooShort(p.min);
    case 'tooLong':
      return s.tooLong(p.max);
    case 'outsideRegion':
      return s.errors.outsideRegion;
    case 'required':
      return s.required;
    default:
      return s.errors.invalid;
  }
}

/** What goes to the server: only the fields of the reply (the place's shown name stays here). */
function wire(d: Draft): Reply {
  const { label: _label, ...reply } = d;
  return reply;
}

export function Runner({ content, start, initialReplies, submit, findPlaces, onEnd }: Props) {
  const { s } = useTexts();
  const [replies, setReplies] = useState<ReplyEntry[]>(initialReplies);
  const [at, setAt] = useState(initialReplies.length);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const flow = useMemo(() => runFlow(content, start, replies.slice(0, at)), [content, start, replies, at]);
  const page: Page | null = flow.next.kind === 'page' ? flow.next : null;
  const endReason = flow.next.kind === 'end' ? flow.next.reason : null;

  useEffect(() => {
    if (endReason && at >= replies.length) onEnd(endReason);
  }, [endReason, at, replies.length, onEnd]);

  // The new question's heading takes the focus after Next or Back, so keyboard and screen-reader
  // users start at the top of the new page (the button they pressed may be gone or disabled).
  const focusHeading = () => setTimeout(() => heading.current?.focus(), 0);

  if (!page) return null;
  const q = page.question;
  const stored = replies[at]?.questionId === q.id ? replies[at].reply : undefined;
  const draft: Draft = drafts[q.id] ?? stored ?? {};
  const setDraft = (r: Draft) => {
    setDrafts((d) => ({ ...d, [q.id]: r }));
    setError(null);
  };
  const errorId = `err-${q.id}`;

  const next = async () => {
    const reply = wire(draft);
    if (CATEGORY_RULES[q.category].lookup && !reply.text && draft.label?.trim()) {
      setError(s.pickPlace);
      return;
    }
    const problem = checkReply(page, reply);
    if (problem) {
      setError(problemText(s, problem));
      return;
    }
    setBusy(true);
    try {
      const res = await submit(at, q.id, reply);
      if (!res.ok) {
        setError(res.message);
        return;
      }
      if (res.end) return onEnd(res.end);
      const same = stored !== undefined && JSON.stringify(stored) === JSON.stringify(reply);
      setReplies(same ? replies : [...replies.slice(0, at), { questionId: q.id, reply }]);
      setAt(at + 1);
      focusHeading();
    } finally {
      setBusy(false);
    }
  };

  const { done, total } = page.progress;
  const percent = Math.round((done / Math.max(1, total)) * 100);
  const rules = CATEGORY_RULES[q.category];
  const body =
    q.category === 'sortable' ? (
      <Ranking page={page} value={draft} onChange={setDraft} describedBy={error ? errorId : undefined} />
    ) : q.category === 'matrix' ? (
      <Matrix page={page} value={draft} onChange={setDraft} describedBy={error ? errorId : undefined} />
    ) : rules.lookup ? (
      <Place
        key={q.id}
        page={page}
        value={{ ...draft, label: draft.label ?? draft.text ?? undefined }}
        onChange={setDraft}
        findPlaces={findPlaces}
        describedBy={error ? errorId : undefined}
      />
    ) : rules.answers ? (
      <Choice page={page} value={draft} onChange={setDraft} describedBy={error ? errorId : undefined} />
    ) : rules.scale || rules.stars ? (
      <Scale page={page} value={draft} onChange={setDraft} describedBy={error ? errorId : undefined} />
    ) : (
      <OpenAnswer page={page} value={draft} onChange={setDraft} describedBy={error ? errorId : undefined} />
    );

  return (
    <form
      className="flex flex-col gap-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void next();
      }}
    >
      <div>
        <div className="mb-1 text-sm text-slate-700">{s.progress(done + 1, total)}</div>
        <div
          role="progressbar"
          aria-label={s.progressLabel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-indigo-100"
        >
          <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold break-words outline-none">
        {q.text}
      </h1>
      {q.picture && (
        <img src={q.picture} alt="" className="max-h-72 max-w-full self-start rounded-lg object-contain" />
      )}
      {body}
      {error && (
        <p id={errorId} role="alert" className="font-medium text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        {page.back && (
          <button
            type="button"
            className="min-h-11 rounded-lg border border-slate-400 bg-white px-5 font-medium focus-visible:outline-2 focus-visible:outline-indigo-600"
            onClick={() => {
              setError(null);
              setAt(at - 1);
              focusHeading();
            }}
          >
            {s.back}
          </button>
        )}
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-lg bg-indigo-700 px-6 font-medium text-white disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {s.next}
        </button>
      </div>
    </form>
  );
}

export function EndPage({ kind }: { kind: EndKind }) {
  const { s } = useTexts();
  const [title, text] =
    kind === 'completed'
      ? [s.thanksTitle, s.thanks]
      : kind === 'screenedOut'
        ? [s.screenedTitle, s.screened]
        : kind === 'noMatch'
          ? [s.noMatchTitle, s.noMatch]
          : [s.fullTitle, s.full];
  return <Message title={title} text={text} />;
}

/** A page of text (the end, a closed survey). Its heading takes the focus, like a new question's. */
export function Message({
  title,
  text,
  children,
}: {
  title: string;
  text: string;
  children?: React.ReactNode;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body || !document.activeElement) ref.current?.focus();
  }, []);
  return (
    <div className="flex flex-col gap-3 py-6 text-center">
      <h1 ref={ref} tabIndex={-1} className="text-2xl font-semibold outline-none">
        {title}
      </h1>
      <p className="text-slate-700">{text}</p>
      {children}
    </div>
  );
}
