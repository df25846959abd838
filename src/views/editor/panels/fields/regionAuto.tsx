import { LookupFields } from '../sections/LookupFields';
import type { FieldsProps } from './types';

/** Region from the lookup. */
export default function RegionFields(p: FieldsProps) {
  return <LookupFields {...p} kind="region" />;
}
