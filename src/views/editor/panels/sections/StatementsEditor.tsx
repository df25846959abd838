import { LIMITS } from '../../../../domain/content/limits';
import type { Question } from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { IconButton } from '../../../ui/Button';
import { TrashIcon } from '../../../ui/icons';
import { TextField } from '../controls';
import { useEdit } from '../usePanel';
import { bindText, useTextLanguage } from '../../languages/useTextLanguage';
import { pastedLines } from './AnswersEditor';

/** The rows of a matrix (its answers are the columns). */
export function StatementsEditor({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const tl = useTextLanguage();
  const T = LL.panels.statements;
  const full = question.statements.length >= LIMITS.statementsPerQuestion;
  return (
    <section className="flex flex-col gap-2" aria-label={T.title()}>
      <h3 className="text-sm font-semibold text-slate-800">{T.title()}</h3>
      {question.statements.length === 0 && <p className="text-xs text-slate-600">{T.empty()}</p>}
      <ol className="flex flex-col gap-1" aria-label={T.title()}>
        {question.statements.map((s, i) => {
          const text = bindText(
            tl,
            s,
            'text',
            { kind: 'statement', questionId: question.id, childId: s.id },
            s.text,
            (value) => ({
              type: 'statement.update',
              questionId: question.id,
              statementId: s.id,
              text: value,
            }),
          );
          return (
            <li key={s.id} className="flex items-center gap-1">
              <span className="w-5 shrink-0 text-right text-xs text-slate-600" aria-hidden="true">
                {i + 1}.
              </span>
              <TextField
                className="flex-1"
                label={T.text({ n: i + 1 })}
                hideLabel
                value={text.value}
                placeholder={text.placeholder}
                disabled={disabled}
                inputProps={{ lang: text.lang }}
                onCommit={(value) => edit(text.command(value))}
                onPaste={(e) => {
                  if (!tl.isSource) return;
                  const lines = pastedLines(e.clipboardData.getData('text/plain'));
                  if (lines.length < 2 || s.text !== '') return;
                  e.preventDefault();
                  // One statement per line; the first fills this empty row.
                  edit({
                    type: 'statement.update',
                    questionId: question.id,
                    statementId: s.id,
                    text: lines[0],
                  });
                  lines
                    .slice(1, LIMITS.statementsPerQuestion - question.statements.length + 1)
                    .forEach((text, k) =>
                      edit({
                        type: 'statement.add',
                        questionId: question.id,
                        index: i + 1 + k,
                        statement: { text },
                      }),
                    );
                }}
              />
              {!disabled && (
                <IconButton
                  label={T.delete({ n: i + 1 })}
                  onClick={() =>
                    edit({ type: 'statement.delete', questionId: question.id, statementId: s.id })
                  }
                >
                  <TrashIcon />
                </IconButton>
              )}
            </li>
          );
        })}
      </ol>
      {!disabled && (
        <button
          type="button"
          disabled={full}
          onClick={() => edit({ type: 'statement.add', questionId: question.id })}
          className="self-start rounded border border-dashed border-indigo-400 px-3 py-1 text-sm text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50"
        >
          + {T.add()}
        </button>
      )}
    </section>
  );
}
