import { AnswersEditor } from '../sections/AnswersEditor';
import { ShuffleField } from '../sections/ShuffleField';
import type { FieldsProps } from './types';

/** Screening: answers, each with its screening mode (the editor shows it per row), shuffle. */
export default function ScreeningFields(p: FieldsProps) {
  return (
    <>
      <AnswersEditor {...p} />
      <ShuffleField {...p} />
    </>
  );
}
