import { AnswerLimitField } from '../sections/AnswerLimitField';
import { AnswersEditor } from '../sections/AnswersEditor';
import { OtherField } from '../sections/OtherField';
import { ShuffleField } from '../sections/ShuffleField';
import type { FieldsProps } from './types';

/** Several answers: answers, "other", how many may be picked, shuffle. */
export default function FewAnswersFields(p: FieldsProps) {
  return (
    <>
      <AnswersEditor {...p} />
      <OtherField {...p} />
      <AnswerLimitField {...p} />
      <ShuffleField {...p} />
    </>
  );
}
