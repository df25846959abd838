import { useI18nContext } from '../../../../i18n/i18n-react';
import { AnswersEditor } from '../sections/AnswersEditor';
import { ShuffleField } from '../sections/ShuffleField';
import { StatementsEditor } from '../sections/StatementsEditor';
import type { FieldsProps } from './types';

/** Matrix: statements (rows) × answers (columns); the rows may be shuffled. */
export default function MatrixFields(p: FieldsProps) {
  const { LL } = useI18nContext();
  return (
    <>
      <StatementsEditor {...p} />
      <AnswersEditor {...p} title={LL.panels.answers.columnsTitle()} />
      <ShuffleField {...p} />
    </>
  );
}
