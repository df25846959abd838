import { ScaleField } from '../sections/ScaleFields';
import type { FieldsProps } from './types';

/** A whole number in a range. */
export default function FromToFields(p: FieldsProps) {
  return <ScaleField {...p} kind="range" />;
}
