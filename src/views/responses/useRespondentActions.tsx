import { useCallback } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import {
  eraseRespondent,
  type ExclusionResult,
  type ExclusionTarget,
  type RespondentListRow,
} from '../../api/responses';
import { confirm } from '../ui/confirm';
import { enqueueModal } from '../ui/modal';
import { notify } from '../ui/toast';
import { errorMessage } from './labels';
import { formatNumber } from '../ui/formatNumber';

// Exclude, restore and erase, each behind its dialog, with the outcome in a toast; `changed` runs
// after every change the server accepted (the page refreshes the list and the open respondent).

export function useRespondentActions(pid: number, changed: () => void) {
  const { LL, locale } = useI18nContext();
  const X = LL.responses.exclusion;

  const setExcluded = useCallback(
    async (target: ExclusionTarget, count: number, excluded: boolean): Promise<boolean> => {
      const n = formatNumber(count, locale);
      // The form loads when it is first opened, as the list pages' forms do.
      const { ExclusionForm } = await import('./ExclusionForm');
      const result = await enqueueModal<ExclusionResult>({
        title: excluded ? X.title({ count: n }) : X.restoreTitle({ count: n }),
        render: (close) => (
          <ExclusionForm
            pid={pid}
            target={target}
            count={count}
            excluded={excluded}
            onDone={(r) => close(r)}
            onCancel={() => close()}
          />
        ),
      });
      if (!result) return false;
      const affected = formatNumber(result.affected, locale);
      if (result.affected === 0) notify.info(excluded ? X.noneChanged() : X.noneRestored());
      else if (excluded)
        notify.success(
          result.quotaPlaces > 0
            ? X.doneFreed({ count: affected, places: formatNumber(result.quotaPlaces, locale) })
            : X.done({ count: affected }),
        );
      else notify.success(X.restored({ count: affected }));
      changed();
      return true;
    },
    [pid, locale, X, changed],
  );

  const erase = useCallback(
    async (row: RespondentListRow) => {
      const ok = await confirm({
        title: LL.responses.erase.title({ id: row.id }),
        text: LL.responses.erase.text(),
        agreeLabel: LL.responses.erase.agree(),
        danger: true,
      });
      if (!ok) return;
      try {
        await eraseRespondent(pid, row.id);
        notify.success(LL.responses.erase.done({ id: row.id }));
        changed();
      } catch (err) {
        notify.error(errorMessage(err));
      }
    },
    [pid, LL, changed],
  );

  return { setExcluded, erase };
}
