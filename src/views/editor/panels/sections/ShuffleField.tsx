import { useMemo, useState } from 'react';
import { SHUFFLE_MODES, type Question, type ShuffleMode } from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Select } from '../controls';
import { shufflePreview } from '../shuffleOrder';
import { useEdit } from '../usePanel';

/** The shuffle mode (10 of them) and what respondents see with it, by answer number. */
export function ShuffleField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const [respondent, setRespondent] = useState(1);
  const n = question.category === 'matrix' ? question.statements.length : question.answers.length;
  // The runner's own arrangement for example respondent k ("another example" takes the next one).
  const preview = useMemo(
    () => shufflePreview(question.shuffle, n, question.id, respondent),
    [question.shuffle, n, question.id, respondent],
  );
  const S = LL.panels.shuffle;
  return (
    <div className="flex flex-col gap-1">
      <Select<ShuffleMode>
        label={LL.panels.shuffle.label()}
        value={question.shuffle}
        disabled={disabled}
        options={SHUFFLE_MODES.map((m) => ({ value: m, label: LL.panels.shuffle.modes[m]() }))}
        onChange={(shuffle) => edit({ type: 'question.update', questionId: question.id, patch: { shuffle } })}
      />
      {n > 1 && question.shuffle !== 'none' && (
        <div className="flex flex-wrap items-center gap-x-2">
          <p className="text-xs text-slate-600" data-testid="shuffle-preview">
            {preview.kind === 'same'
              ? S.same({ order: preview.order.join(', ') })
              : preview.kind === 'halves'
                ? S.halves({ asListed: preview.asListed.join(', '), reversed: preview.reversed.join(', ') })
                : S.preview({ n: preview.respondent, order: preview.order.join(', ') })}
          </p>
          {preview.kind === 'example' && (
            <button
              type="button"
              className="rounded px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              onClick={() => setRespondent((k) => k + 1)}
            >
              {S.again()}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
