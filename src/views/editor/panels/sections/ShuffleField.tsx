import { useMemo, useState } from 'react';
import { SHUFFLE_MODES, type Question, type ShuffleMode } from '../../../../domain/content/model';
import { useI18nContext } from '../../../../i18n/i18n-react';
import { Select } from '../controls';
import { shuffleOrder } from '../shuffleOrder';
import { random } from '../../../../domain/flow/shuffle';
import { useEdit } from '../usePanel';

/** The shuffle mode (10 of them) and one order it could give, by answer number. */
export function ShuffleField({ question, disabled }: { question: Question; disabled: boolean }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const [seed, setSeed] = useState(0);
  const n = question.category === 'matrix' ? question.statements.length : question.answers.length;
  // Each seed draws one example ("another example" raises it), with the runner's own generator.
  const order = useMemo(
    () => shuffleOrder(question.shuffle, n, random(seed + 1)).map((i) => i + 1),
    [question.shuffle, n, seed],
  );
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
        <div className="flex items-center gap-2">
          <p className="text-xs text-slate-600" data-testid="shuffle-preview">
            {LL.panels.shuffle.preview({ order: order.join(', ') })}
          </p>
          <button
            type="button"
            className="rounded px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            onClick={() => setSeed((s) => s + 1)}
          >
            {LL.panels.shuffle.again()}
          </button>
        </div>
      )}
    </div>
  );
}
