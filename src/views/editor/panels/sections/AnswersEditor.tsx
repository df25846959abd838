import { memo, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { CATEGORY_RULES } from '../../../../domain/content/categories';
import { newId } from '../../../../domain/content/ids';
import { LIMITS } from '../../../../domain/content/limits';
import {
  SCREENING_MODES,
  type Answer,
  type Question,
  type ScreeningMode,
} from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { IconButton } from '../../../ui/Button';
import { TrashIcon } from '../../../ui/icons';
import { Select, TextField } from '../controls';
import { RedirectPicker } from '../RedirectPicker';
import { PictureField } from '../PictureField';
import { useEdit } from '../usePanel';
import { bindText, useTextLanguage } from '../../languages/useTextLanguage';

// The answers of a question: edit, add (Enter adds one below), delete, reorder by dragging the
// handle or with Alt+↑/↓, paste several lines as several answers (one edit). Each row is memoised on
// its answer, so typing in one answer re-renders that row only.

/** Lines of a pasted text that make answers: trimmed, empty lines and list markers dropped. */
export function pastedLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d{1,3}[.)])\s+/, '').trim())
    .filter((l) => l !== '');
}

interface RowProps {
  answer: Answer;
  index: number;
  count: number;
  questionId: string;
  disabled: boolean;
  screening: boolean;
  redirects: boolean;
  pictures: boolean;
  where: string;
  onKey: (e: KeyboardEvent<HTMLElement>, index: number, answer: Answer) => void;
  onPaste: (e: ClipboardEvent<HTMLElement>, index: number, answer: Answer) => void;
  onDragStart: (index: number) => void;
  onDrop: (index: number) => void;
}

const AnswerRow = memo(function AnswerRow(p: RowProps) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const tl = useTextLanguage();
  const n = p.index + 1;
  const T = LL.panels.answers;
  const text = bindText(
    tl,
    p.answer,
    'text',
    { kind: 'answer', questionId: p.questionId, childId: p.answer.id },
    p.answer.text,
    (value) => ({
      type: 'answer.update',
      questionId: p.questionId,
      answerId: p.answer.id,
      patch: { text: value },
    }),
  );
  return (
    <li
      className="flex flex-col gap-1 rounded border border-slate-200 bg-white p-2"
      data-answer-id={p.answer.id}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        p.onDrop(p.index);
      }}
    >
      <div className="flex items-center gap-1">
        {!p.disabled && (
          <span
            role="img"
            aria-label={T.drag({ n })}
            title={T.drag({ n })}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', p.answer.id);
              p.onDragStart(p.index);
            }}
            className="cursor-grab select-none px-1 text-slate-600"
          >
            ⠿
          </span>
        )}
        <span className="w-5 shrink-0 text-right text-xs text-slate-600" aria-hidden="true">
          {n}.
        </span>
        <TextField
          className="flex-1"
          label={T.text({ n })}
          hideLabel
          value={text.value}
          placeholder={text.placeholder}
          disabled={p.disabled}
          inputProps={{ 'data-answer-input': p.answer.id, lang: text.lang }}
          onCommit={(value) => edit(text.command(value))}
          // In another language the list's structure is the source's: Enter and a pasted list only
          // add answers there.
          onKeyDown={tl.isSource ? (e) => p.onKey(e, p.index, p.answer) : undefined}
          onPaste={tl.isSource ? (e) => p.onPaste(e, p.index, p.answer) : undefined}
        />
        {!p.disabled && (
          <IconButton
            label={T.delete({ n })}
            onClick={() => edit({ type: 'answer.delete', questionId: p.questionId, answerId: p.answer.id })}
          >
            <TrashIcon />
          </IconButton>
        )}
      </div>
      {(p.screening || p.redirects || p.pictures) && (
        <div className="flex flex-col gap-2 pl-7">
          {p.pictures && (
            <PictureField
              compact
              value={p.answer.picture}
              what={`${p.where}${LL.panels.path.separator()}${T.text({ n })}`}
              disabled={p.disabled}
              onChange={(picture) =>
                edit({
                  type: 'answer.update',
                  questionId: p.questionId,
                  answerId: p.answer.id,
                  patch: { picture },
                })
              }
            />
          )}
          {p.screening && (
            <Select<ScreeningMode>
              label={T.screening({ n })}
              value={p.answer.screening ?? 'allow'}
              disabled={p.disabled}
              options={SCREENING_MODES.map((m) => ({ value: m, label: LL.panels.screeningModes[m]() }))}
              onChange={(screening) =>
                edit({
                  type: 'answer.update',
                  questionId: p.questionId,
                  answerId: p.answer.id,
                  patch: { screening },
                })
              }
            />
          )}
          {p.redirects && (
            <RedirectPicker
              questionId={p.questionId}
              answerId={p.answer.id}
              redirect={p.answer.redirect}
              label={T.redirect({ n })}
              disabled={p.disabled}
            />
          )}
        </div>
      )}
    </li>
  );
});

export function AnswersEditor({
  question,
  disabled,
  title,
  where = '',
}: {
  question: Question;
  disabled: boolean;
  title?: string;
  where?: string;
}) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const rules = CATEGORY_RULES[question.category];
  const answers = question.answers;
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const dragFrom = useRef<number | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const T = LL.panels.answers;
  const room = LIMITS.answersPerQuestion - answers.length;

  // Keep the caret with the answer that moved or was just added.
  useEffect(() => {
    if (!focusId) return;
    listRef.current?.querySelector<HTMLInputElement>(`[data-answer-input="${focusId}"]`)?.focus();
    setFocusId(null);
  }, [focusId, answers]);

  const move = (answer: Answer, from: number, to: number) => {
    if (to < 0 || to >= answers.length || to === from) return;
    edit({ type: 'answer.move', questionId: question.id, answerId: answer.id, index: to });
    setFocusId(answer.id);
    setAnnounce(T.moved({ n: from + 1, to: to + 1 }));
  };

  const addAt = (index: number) => {
    if (room <= 0) return setAnnounce(T.tooMany({ max: LIMITS.answersPerQuestion }));
    const id = newId();
    edit({ type: 'answer.add', questionId: question.id, index, answer: { id } });
    setFocusId(id);
  };

  const onKey = (e: KeyboardEvent<HTMLElement>, index: number, answer: Answer) => {
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      // Commit what is typed first: the move re-renders the row from the stored answer.
      (e.target as HTMLElement).blur();
      move(answer, index, index + (e.key === 'ArrowUp' ? -1 : 1));
    } else if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      (e.target as HTMLElement).blur();
      addAt(index + 1);
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLElement>, index: number | null, answer: Answer | null) => {
    const lines = pastedLines(e.clipboardData.getData('text/plain'));
    if (lines.length < 2) return;
    e.preventDefault();
    const fill =
      answer && answer.text === '' && (e.target as HTMLInputElement).value === '' ? answer.id : undefined;
    const fits = lines.slice(0, room + (fill ? 1 : 0));
    edit({
      type: 'answer.addMany',
      questionId: question.id,
      index: index === null ? answers.length : index + 1,
      texts: fits,
      ...(fill ? { fill } : {}),
    });
    setAnnounce(
      fits.length < lines.length
        ? `${T.pasted({ count: fits.length })}. ${T.tooMany({ max: LIMITS.answersPerQuestion })}`
        : T.pasted({ count: fits.length }),
    );
  };

  return (
    <section className="flex flex-col gap-2" aria-label={title ?? T.title()}>
      <h3 className="text-sm font-semibold text-slate-800">{title ?? T.title()}</h3>
      {!disabled && <p className="text-xs text-slate-600">{T.keyboardHint()}</p>}
      {answers.length === 0 && <p className="text-xs text-slate-600">{T.empty()}</p>}
      <ol ref={listRef} className="flex flex-col gap-1" aria-label={title ?? T.title()}>
        {answers.map((a, i) => (
          <AnswerRow
            key={a.id}
            answer={a}
            index={i}
            count={answers.length}
            questionId={question.id}
            disabled={disabled}
            screening={rules.screening}
            redirects={rules.answerRedirects}
            pictures={rules.answerPictures}
            where={where}
            onKey={onKey}
            onPaste={onPaste}
            onDragStart={(from) => (dragFrom.current = from)}
            onDrop={(to) => {
              const from = dragFrom.current;
              dragFrom.current = null;
              if (from !== null) move(answers[from], from, to);
            }}
          />
        ))}
      </ol>
      {!disabled && (
        <div className="flex flex-col gap-1">
          <button
            type="button"
            disabled={room <= 0}
            onClick={() => addAt(answers.length)}
            data-testid="add-answer"
            className="self-start rounded border border-dashed border-indigo-400 px-3 py-1 text-sm text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50"
          >
            + {T.add()}
          </button>
        </div>
      )}
      <p role="status" aria-live="polite" className="text-xs text-slate-600">
        {announce}
      </p>
    </section>
  );
}
