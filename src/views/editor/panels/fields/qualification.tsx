import { AnswersEditor } from '../sections/AnswersEditor';
import { OtherField } from '../sections/OtherField';
import { ShuffleField } from '../sections/ShuffleField';
import type { FieldsProps } from './types';

/** Qualification: one answer that routes the respondent (answers redirect), "other", shuffle. */
export default function QualificationFields(p: FieldsProps) {
  return (
    <>
      <AnswersEditor {...p} />
      <OtherField {...p} />
      <ShuffleField {...p} />
    </>
  );
}
