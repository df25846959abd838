import { ScaleField } from '../sections/ScaleFields';
import type { FieldsProps } from './types';

/** Slider: min, max and step. */
export default function SliderFields(p: FieldsProps) {
  return <ScaleField {...p} kind="slider" />;
}
