import { AnswersEditor } from '../sections/AnswersEditor';
import { OtherField } from '../sections/OtherField';
import { ShuffleField } from '../sections/ShuffleField';
import type { FieldsProps } from './types';

/** One answer: answers (each may redirect), "other", shuffle. */
export default function OneAnswerFields(p: FieldsProps) {
  return (
    <>
      <AnswersEditor {...p} />
      <OtherField {...p} />
      <ShuffleField {...p} />
    </>
  );
}
