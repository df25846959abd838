import type { Question } from '../../../../domain/content/model';
import { TEXT_MAX } from '../../../../domain/content/limits';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Checkbox, TextField } from '../controls';
import { useEdit } from '../usePanel';
import { bindText, useTextLanguage } from '../../languages/useTextLanguage';

/** The custom "other" answer: on or off, with its label ('' shows the default label). */
export function OtherField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const tl = useTextLanguage();
  const set = (other: string | null) =>
    edit({ type: 'question.update', questionId: question.id, patch: { other } });
  const label = bindText(
    tl,
    question,
    'other',
    { kind: 'question', questionId: question.id },
    question.other ?? '',
    (other) => ({
      type: 'question.update',
      questionId: question.id,
      patch: { other },
    }),
  );
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
          value={label.value}
          placeholder={label.placeholder ?? LL.panels.other.placeholder()}
          maxLength={TEXT_MAX.other}
          // The default label ('' in the source) is the interface's, in the respondent's language.
          disabled={disabled || (!tl.isSource && question.other === '')}
          inputProps={{ lang: label.lang }}
          onCommit={(value) => edit(label.command(value))}
        />
      )}
    </div>
  );
}
