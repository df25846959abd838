import type { Question } from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Checkbox, NumberField } from '../controls';
import { useEdit } from '../usePanel';

/** The answer count limit with the spec's two messages (section 5), live as answers change. */
export function AnswerLimitField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const limit = question.answerLimit;
  const available = question.answers.length + (question.other !== null ? 1 : 0);
  const set = (answerLimit: Question['answerLimit']) =>
    edit({ type: 'question.update', questionId: question.id, patch: { answerLimit } });
  let error: string | null = null;
  if (limit) {
    if (limit.min > limit.max || limit.max < 1 || limit.min < 0) error = LL.editor.rules.answerLimitRange();
    else if (limit.min > available) error = LL.editor.rules.answerLimitMissing();
    else if (limit.max > available) error = LL.editor.rules.answerLimitExceeded();
  }
  return (
    <div className="flex flex-col gap-2">
      <Checkbox
        label={LL.panels.limit.enabled()}
        checked={limit !== null}
        disabled={disabled}
        onChange={(on) => set(on ? { min: 1, max: Math.max(1, available) } : null)}
      />
      {limit && (
        <>
          <div className="grid grid-cols-2 gap-2">
            <NumberField
              label={LL.panels.limit.min()}
              value={limit.min}
              min={0}
              max={available}
              disabled={disabled}
              onCommit={(min) => set({ ...limit, min })}
            />
            <NumberField
              label={LL.panels.limit.max()}
              value={limit.max}
              min={1}
              max={available}
              disabled={disabled}
              onCommit={(max) => set({ ...limit, max })}
            />
          </div>
          <p className="text-xs text-slate-600">{LL.panels.limit.available({ count: available })}</p>
          {error && (
            <p role="alert" className="text-xs text-red-800" data-testid="limit-error">
              {error}
            </p>
          )}
        </>
      )}
    </div>
  );
}
