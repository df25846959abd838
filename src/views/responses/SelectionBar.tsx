import { useI18nContext } from '../../i18n/i18n-react';
import type { RespondentFilters } from '../../api/responses';
import { Button } from '../ui/Button';
import { formatNumber } from '../ui/formatNumber';
import { everyone, NOTHING, selectedCount, type Selection } from './selection';

// What is selected and what can be done with it: the count, "select everyone this filter
// matches" (the whole list, not only the rows seen), exclude, restore and clear. Shown only to
// those who may change the project's respondents.

export function SelectionBar({
  selection,
  total,
  filters,
  onSelection,
  onExclude,
}: {
  selection: Selection;
  total: number;
  filters: RespondentFilters;
  onSelection: (s: Selection) => void;
  onExclude: (excluded: boolean) => void;
}) {
  const { LL, locale } = useI18nContext();
  const S = LL.responses.selection;
  const count = selectedCount(selection);
  const n = (x: number) => formatNumber(x, locale);
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm"
      data-selection={selection.kind === 'filter' ? 'filter' : count}
    >
      <span className="text-slate-700" aria-live="polite">
        {selection.kind === 'filter'
          ? S.everyone({ count: n(count) })
          : count === 0
            ? S.hint()
            : S.count({ count: n(count) })}
      </span>
      {selection.kind !== 'filter' && total > 0 && (
        <Button variant="ghost" className="px-2" onClick={() => onSelection(everyone(filters, total))}>
          {S.selectEveryone({ count: n(total) })}
        </Button>
      )}
      {/* What can be done with a selection shows once there is one. */}
      {count > 0 && (
        <span className="ml-auto flex flex-wrap items-center gap-2">
          <Button variant="danger" onClick={() => onExclude(true)}>
            {S.exclude()}
          </Button>
          <Button variant="secondary" onClick={() => onExclude(false)}>
            {S.restore()}
          </Button>
          <Button variant="ghost" className="px-2" onClick={() => onSelection(NOTHING)}>
            {S.clear()}
          </Button>
        </span>
      )}
    </div>
  );
}
