import { useMemo } from 'react';
import { CATEGORY_RULES } from '../../../../domain/content/categories';
import { LIMITS, TEXT_MAX } from '../../../../domain/content/limits';
import {
  RECALL_MODES,
  customParams as customParamsSchema,
  type Question,
} from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import * as v from 'valibot';
import { Checkbox, Select, TextField } from '../controls';
import { questionsOf, type QuestionPlace } from '../locate';
import { useEdit } from '../usePanel';
import { MappingWarnings } from './MappingWarnings';

// The fields every category shares below its own: the recall filter, writing to the database and
// customParams.

const shorten = (s: string) => (s.length > 50 ? `${s.slice(0, 49)}…` : s);

/** Offer only the answers picked (or not picked) in an earlier question of this questionnaire. */
export function RecallField({ place, disabled }: { place: QuestionPlace; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const q = place.question;
  const earlier = useMemo(
    () =>
      questionsOf(place.questionnaire)
        .filter((x) => x.number < place.number && CATEGORY_RULES[x.question.category].recallable)
        .map((x) => ({
          value: x.question.id,
          label: `${LL.panels.path.question({ n: x.number })}${x.question.text.trim() ? `: ${shorten(x.question.text)}` : ''}`,
        })),
    [LL, place],
  );
  const set = (recall: Question['recall']) =>
    edit({ type: 'question.update', questionId: q.id, patch: { recall } });
  const T = LL.panels.recall;
  return (
    <div className="flex flex-col gap-2">
      <Checkbox
        label={T.enabled()}
        checked={q.recall !== null}
        disabled={disabled || (earlier.length === 0 && q.recall === null)}
        onChange={(on) => set(on ? { questionId: earlier[0].value, mode: 'selected' } : null)}
      />
      {earlier.length === 0 && q.recall === null && <p className="text-xs text-slate-600">{T.noEarlier()}</p>}
      {q.recall && (
        <>
          <Select
            label={T.question()}
            value={q.recall.questionId}
            disabled={disabled}
            options={earlier}
            onChange={(questionId) => set({ ...q.recall!, questionId })}
          />
          <Select
            label={T.mode()}
            value={q.recall.mode}
            disabled={disabled}
            options={RECALL_MODES.map((m) => ({ value: m, label: T.modes[m]() }))}
            onChange={(mode) => set({ ...q.recall!, mode })}
          />
        </>
      )}
    </div>
  );
}

const DB_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function DbFields({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const T = LL.panels.db;
  const split = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  return (
    <div className="flex flex-col gap-2">
      <Checkbox
        label={T.enabled()}
        checked={question.writeToDb}
        disabled={disabled}
        onChange={(writeToDb) =>
          edit({
            type: 'question.update',
            questionId: question.id,
            patch: writeToDb ? { writeToDb } : { writeToDb, dbFields: [] },
          })
        }
      />
      {question.writeToDb && (
        <TextField
          label={T.fields()}
          value={question.dbFields.join(', ')}
          disabled={disabled}
          check={(s) => {
            const f = split(s);
            return f.length > LIMITS.dbFields || f.some((x) => !DB_FIELD.test(x))
              ? T.invalid({ max: LIMITS.dbFields })
              : null;
          }}
          onCommit={(s) =>
            edit({ type: 'question.update', questionId: question.id, patch: { dbFields: split(s) } })
          }
        />
      )}
      <MappingWarnings question={question} />
    </div>
  );
}

/** customParams as JSON, checked as typed ('Value must be a valid JSON string'). */
export function CustomParamsField({
  value,
  onCommit,
  disabled,
  readOnlyNote,
}: {
  value: string;
  onCommit: (s: string) => void;
  disabled: boolean;
  readOnlyNote: string | null;
}) {
  const { LL } = useI18nContext();
  return (
    <div className="flex flex-col gap-1">
      <TextField
        label={LL.panels.customParams.label()}
        value={value}
        multiline
        disabled={disabled}
        placeholder='{"key": "value"}'
        check={(s) => {
          const r = v.safeParse(customParamsSchema, s);
          if (r.success) return null;
          const key = r.issues[0].message as 'json' | 'tooLong';
          return key === 'json'
            ? LL.validation.json()
            : LL.validation.tooLong({ max: TEXT_MAX.customParams });
        }}
        onCommit={onCommit}
        inputProps={{ spellCheck: 'false', 'data-testid': 'custom-params' }}
      />
      {readOnlyNote && <p className="text-xs text-slate-600">{readOnlyNote}</p>}
    </div>
  );
}
