import { useI18nContext } from '../../../../i18n/i18n-react';
import { AnswersEditor } from '../sections/AnswersEditor';
import { ShuffleField } from '../sections/ShuffleField';
import type { FieldsProps } from './types';

/** Ranking: at least two answers to put in order, and the order they are first shown in. */
export default function SortableFields(p: FieldsProps) {
  const { LL } = useI18nContext();
  return (
    <>
      <p className="text-xs text-slate-600">{LL.panels.sortable.hint()}</p>
      <AnswersEditor {...p} />
      <ShuffleField {...p} />
    </>
  );
}
