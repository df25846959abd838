import type { Question } from '../../../../domain/content/model';
import { TEXT_MAX } from '../../../../domain/content/limits';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Checkbox, TextField } from '../controls';
import { useEdit } from '../usePanel';

/** The custom "other" answer: on or off, with its label ('' shows the default label). */
export function OtherField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const set = (other: string | null) =>
    edit({ type: 'question.update', questionId: question.id, patch: { other } });
  return (
    <div className="flex flex-col gap-2">
      <Checkbox
        label={LL.panels.other.enabled()}
        checked={question.other !== null}
        disabled={disabled}
        onChange={(on) => set(on ? '' : null)}
      />
      {question.other !== null && (
        <TextField
          label={LL.panels.other.label()}
          value={question.other}
          placeholder={LL.panels.other.placeholder()}
          maxLength={TEXT_MAX.other}
          disabled={disabled}
          onCommit={set}
        />
      )}
    </div>
  );
}
