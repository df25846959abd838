import { LookupFields } from '../sections/LookupFields';
import type { FieldsProps } from './types';

/** City from the lookup, optionally within one region. */
export default function CityFields(p: FieldsProps) {
  return <LookupFields {...p} kind="city" />;
}
