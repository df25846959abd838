import { DEFAULT_SCALE, OPEN_ANSWER_MAX } from '../../../../domain/content/categories';
import { LIMITS, TEXT_MAX } from '../../../../domain/content/limits';
import type { Question } from '../../../../domain/content/model';
import type { Command } from '../../../../domain/content/commands';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Checkbox, NumberField, TextField } from '../controls';
import { useEdit } from '../usePanel';
import { bindText, useTextLanguage } from '../../languages/useTextLanguage';

// The numeric fields of the scale categories: fromTo (whole numbers, step 1), slider (min, max,
// step), nps (fixed 0–10, with the words at both ends), stars, and the length of an open answer.

function scaleError(LL: ReturnType<typeof useI18nContext>['LL'], q: Question, kind: 'range' | 'slider') {
  const s = q.scale;
  if (!s) return null;
  const ok =
    s.min < s.max &&
    s.step > 0 &&
    s.step <= s.max - s.min &&
    (kind === 'slider' || (Number.isInteger(s.min) && Number.isInteger(s.max) && s.step === 1));
  return ok ? null : LL.editor.rules.scaleInvalid();
}

export function ScaleField({
  question,
  disabled,
  kind,
}: {
  question: Question;
  disabled: boolean;
  kind: 'range' | 'slider';
}) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const scale = question.scale ?? { ...DEFAULT_SCALE[kind] };
  const set = (patch: Partial<typeof scale>) =>
    edit({ type: 'question.update', questionId: question.id, patch: { scale: { ...scale, ...patch } } });
  const error = scaleError(LL, question, kind);
  return (
    <div className="flex flex-col gap-2">
      <div className={`grid gap-2 ${kind === 'slider' ? 'grid-cols-3' : 'grid-cols-2'}`}>
        <NumberField
          label={LL.panels.scale.min()}
          value={scale.min}
          decimal={kind === 'slider'}
          disabled={disabled}
          onCommit={(min) => set({ min })}
        />
        <NumberField
          label={LL.panels.scale.max()}
          value={scale.max}
          decimal={kind === 'slider'}
          disabled={disabled}
          onCommit={(max) => set({ max })}
        />
        {kind === 'slider' && (
          <NumberField
            label={LL.panels.scale.step()}
            value={scale.step}
            decimal
            min={0}
            disabled={disabled}
            onCommit={(step) => set({ step })}
          />
        )}
      </div>
      {kind === 'range' && !error && (
        <p className="text-xs text-slate-600">{LL.panels.scale.range({ min: scale.min, max: scale.max })}</p>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

export function NpsFields({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const tl = useTextLanguage();
  const labels = question.scaleLabels ?? { min: '', max: '' };
  const command = (patch: Partial<typeof labels>): Command => {
    const next = { ...labels, ...patch };
    return {
      type: 'question.update',
      questionId: question.id,
      patch: { scaleLabels: next.min === '' && next.max === '' ? null : next },
    };
  };
  const at = { kind: 'question', questionId: question.id } as const;
  const min = bindText(tl, question, 'scaleMin', at, labels.min, (value) => command({ min: value }));
  const max = bindText(tl, question, 'scaleMax', at, labels.max, (value) => command({ max: value }));
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-slate-600">{LL.panels.scale.npsFixed()}</p>
      <div className="flex gap-0.5" aria-hidden="true">
        {Array.from({ length: 11 }, (_, i) => (
          <span key={i} className="flex-1 rounded bg-slate-100 py-1 text-center text-xs text-slate-700">
            {i}
          </span>
        ))}
      </div>
      <div className="grid grid-cols-2 gap-2">
        <TextField
          label={LL.panels.scale.labelMin()}
          value={min.value}
          placeholder={min.placeholder ?? LL.panels.scale.labelMinPlaceholder()}
          maxLength={TEXT_MAX.other}
          disabled={disabled || (!tl.isSource && labels.min === '')}
          inputProps={{ lang: min.lang }}
          onCommit={(value) => edit(min.command(value))}
        />
        <TextField
          label={LL.panels.scale.labelMax()}
          value={max.value}
          placeholder={max.placeholder ?? LL.panels.scale.labelMaxPlaceholder()}
          maxLength={TEXT_MAX.other}
          disabled={disabled || (!tl.isSource && labels.max === '')}
          inputProps={{ lang: max.lang }}
          onCommit={(value) => edit(max.command(value))}
        />
      </div>
    </div>
  );
}

export function StarsField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const stars = question.stars ?? 5;
  const ok = Number.isInteger(stars) && stars >= LIMITS.starsMin && stars <= LIMITS.starsMax;
  return (
    <div className="flex flex-col gap-2">
      <NumberField
        label={LL.panels.stars.label({ min: LIMITS.starsMin, max: LIMITS.starsMax })}
        value={stars}
        min={LIMITS.starsMin}
        max={LIMITS.starsMax}
        disabled={disabled}
        error={ok ? null : LL.editor.rules.starsInvalid({ min: LIMITS.starsMin, max: LIMITS.starsMax })}
        onCommit={(n) => edit({ type: 'question.update', questionId: question.id, patch: { stars: n } })}
      />
      {ok && (
        <p className="text-sm text-amber-800">{LL.panels.stars.preview({ stars: '★'.repeat(stars) })}</p>
      )}
    </div>
  );
}

export function OpenLengthField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const len = question.textLength;
  const set = (textLength: Question['textLength']) =>
    edit({ type: 'question.update', questionId: question.id, patch: { textLength } });
  const bad = len && (len.min < 0 || len.max < 1 || len.min > len.max || len.max > OPEN_ANSWER_MAX);
  return (
    <div className="flex flex-col gap-2">
      <Checkbox
        label={LL.panels.open.limit()}
        checked={len !== null}
        disabled={disabled}
        onChange={(on) => set(on ? { min: 0, max: 500 } : null)}
      />
      {len && (
        <div className="grid grid-cols-2 gap-2">
          <NumberField
            label={LL.panels.open.min()}
            value={len.min}
            min={0}
            disabled={disabled}
            onCommit={(min) => set({ ...len, min })}
          />
          <NumberField
            label={LL.panels.open.max()}
            value={len.max}
            min={1}
            max={OPEN_ANSWER_MAX}
            disabled={disabled}
            onCommit={(max) => set({ ...len, max })}
          />
        </div>
      )}
      {bad && (
        <p role="alert" className="text-xs text-red-800">
          {LL.editor.rules.textLengthInvalid({ max: OPEN_ANSWER_MAX })}
        </p>
      )}
    </div>
  );
}
