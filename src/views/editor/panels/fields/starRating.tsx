import { StarsField } from '../sections/ScaleFields';
import type { FieldsProps } from './types';

/** How many stars. */
export default function StarRatingFields(p: FieldsProps) {
  return <StarsField {...p} />;
}
