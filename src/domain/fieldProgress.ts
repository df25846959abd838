import { FIELD_ETA_MAX_DAYS, FIELD_PACE_HOURS, type FieldPortrait } from './responses';

// Field progress (report JSON `field`): per portrait, how far its quota is and when it will be full
// at the pace of the last FIELD_PACE_HOURS hours. Pure: the server counts, this shapes.

const HOUR = 3_600_000;

export function fieldPortrait(input: {
  id: string;
  name: string;
  target: number;
  /** Completed and not excluded. */
  accepted: number;
  excluded: number;
  /** Accepted completes that finished within the last FIELD_PACE_HOURS hours. */
  recent: number;
  now: number;
}): FieldPortrait {
  const perHour = input.recent / FIELD_PACE_HOURS;
  const base = {
    id: input.id,
    name: input.name,
    target: input.target,
    accepted: input.accepted,
    excluded: input.excluded,
    perHour: Math.round(perHour * 10) / 10,
  };
  const left = input.target - input.accepted;
  if (left <= 0) return { ...base, state: 'full', eta: null };
  if (perHour <= 0) return { ...base, state: 'notAtThisPace', eta: null };
  const hours = left / perHour;
  if (hours > FIELD_ETA_MAX_DAYS * 24) return { ...base, state: 'notAtThisPace', eta: null };
  return { ...base, state: 'eta', eta: input.now + Math.round(hours * HOUR) };
}
