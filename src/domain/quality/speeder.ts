import { SPEEDER_MIN_COMPLETED } from '../responses';

// The speeder rule: a completed respondent faster than `percent` % of the median completion time of
// the completed respondents, judged only once SPEEDER_MIN_COMPLETED have completed (before that the
// median says little). Pure: the server gives it the durations (grouped by whole seconds, as the
// report's timing reads them) and stores the threshold it answers.

/** The median of a distribution of whole seconds (sorted or not), null when it is empty. */
export function medianSeconds(durations: readonly { seconds: number; n: number }[]): number | null {
  const sorted = [...durations].filter((d) => d.n > 0).sort((a, b) => a.seconds - b.seconds);
  const total = sorted.reduce((s, d) => s + d.n, 0);
  if (total === 0) return null;
  const at = (k: number) => {
    let seen = 0;
    for (const d of sorted) {
      seen += d.n;
      if (seen > k) return d.seconds;
    }
    return sorted[sorted.length - 1].seconds;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

export interface SpeederRule {
  completed: number;
  medianMs: number | null;
  /** Completed faster than this (ms) is a speeder; null while the rule does not apply. */
  thresholdMs: number | null;
  percent: number;
}

/** The rule for these durations and this share of the median. */
export function speederRule(
  durations: readonly { seconds: number; n: number }[],
  percent: number,
): SpeederRule {
  const completed = durations.reduce((s, d) => s + d.n, 0);
  const median = medianSeconds(durations);
  const medianMs = median === null ? null : Math.round(median * 1000);
  return {
    completed,
    medianMs,
    thresholdMs:
      completed >= SPEEDER_MIN_COMPLETED && medianMs !== null ? Math.round((medianMs * percent) / 100) : null,
    percent,
  };
}

export function isSpeeder(durationMs: number, rule: Pick<SpeederRule, 'thresholdMs'>): boolean {
  return rule.thresholdMs !== null && durationMs < rule.thresholdMs;
}
