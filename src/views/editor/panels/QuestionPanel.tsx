import { useMemo } from 'react';
import { TEXT_MAX } from '../../../domain/content/limits';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import { CategoryPicker } from './CategoryPicker';
import { PictureField } from './PictureField';
import { Section, TextField } from './controls';
import { CATEGORY_FIELDS } from './fields/registry';
import { findQuestionPlace } from './locate';
import { RedirectPicker } from './RedirectPicker';
import { ReviewNote, useReview } from './review';
import { CustomParamsField, DbFields, RecallField } from './sections/CommonFields';
import { useCanEdit, useEdit, usePathLabel, usePermissions } from './usePanel';
import { bindText, useTextLanguage } from '../languages/useTextLanguage';

// The question panel: one shared frame (where it is, its text, its category) around the fields of
// its category (fields/registry.ts), then what every question has: redirect, recall filter, writing
// to the database, customParams (only for holders of question.change-custom-params).

export function QuestionPanel({ id }: { id: string }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const canEdit = useCanEdit();
  const perms = usePermissions();
  const pathLabel = usePathLabel();
  const review = useReview();
  const tl = useTextLanguage();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const place = useMemo(() => findQuestionPlace(content, id), [content, id]);
  if (!place) return <p className="text-sm text-slate-600">{LL.panels.missing()}</p>;
  const q = place.question;
  const disabled = !canEdit;
  const Fields = CATEGORY_FIELDS[q.category];
  // The text in the language the toolbar's switch chose (its translation, or the source itself).
  const text = bindText(tl, q, 'text', { kind: 'question', questionId: q.id }, q.text, (value) => ({
    type: 'question.update',
    questionId: q.id,
    patch: { text: value },
  }));
  const where = pathLabel({
    ...(content.questionnaires.length > 1 ? { questionnaire: place.qn + 1 } : {}),
    block: place.b + 1,
    question: place.number,
  });
  return (
    <div className="flex flex-col gap-3" data-panel="question" data-question-id={q.id}>
      <header>
        <p className="text-xs text-slate-600">{where}</p>
      </header>
      <TextField
        label={LL.panels.question.text()}
        value={text.value}
        placeholder={text.placeholder}
        multiline
        maxLength={TEXT_MAX.question}
        disabled={disabled}
        inputProps={{ lang: text.lang }}
        onCommit={(value) => edit(text.command(value))}
      />
      <PictureField
        value={q.picture}
        what={where}
        disabled={disabled}
        onChange={(picture) => edit({ type: 'question.update', questionId: q.id, patch: { picture } })}
      />
      <CategoryPicker question={q} disabled={disabled} />
      <Fields question={q} disabled={disabled} where={where} />
      <Section title={LL.panels.redirect.label()}>
        <RedirectPicker
          questionId={q.id}
          redirect={q.redirect}
          label={LL.panels.redirect.label()}
          disabled={disabled}
        />
      </Section>
      <Section title={LL.panels.recall.enabled()}>
        <RecallField place={place} disabled={disabled} />
      </Section>
      <Section title={LL.panels.db.enabled()}>
        <DbFields question={q} disabled={disabled} />
      </Section>
      <Section title={LL.panels.customParams.label()}>
        <CustomParamsField
          value={review.value(q.id, 'customParams', q.customParams)}
          disabled={(disabled && !review.active) || !perms.customParams}
          readOnlyNote={perms.customParams ? null : LL.panels.customParams.readOnly()}
          onCommit={(customParams) =>
            review.active
              ? void review.save('question', q.id, { customParams })
              : edit({ type: 'question.update', questionId: q.id, patch: { customParams } })
          }
        />
        {review.active && <ReviewNote review={review} />}
      </Section>
    </div>
  );
}
