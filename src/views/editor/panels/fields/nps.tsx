import { NpsFields } from '../sections/ScaleFields';
import type { FieldsProps } from './types';

/** NPS: the fixed 0–10 scale with words at both ends. */
export default function NpsCategoryFields(p: FieldsProps) {
  return <NpsFields {...p} />;
}
