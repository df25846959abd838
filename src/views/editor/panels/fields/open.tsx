import { OpenLengthField } from '../sections/ScaleFields';
import type { FieldsProps } from './types';

/** A free answer, optionally with a length. */
export default function OpenFields(p: FieldsProps) {
  return <OpenLengthField {...p} />;
}
