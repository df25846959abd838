import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { ProjectContent } from '../../src/domain/content/model';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { flagNames, type SpeederRule } from '../../src/domain/quality';
import type {
  QualityFlag,
  QualityFlagParams,
  RespondentExclusion,
  RespondentListRow,
  RespondentStatusName,
} from '../../src/domain/responses';

// A respondent row as the list and the detail answer it: the status by name, the flags with their
// reasons in the reader's language (stored as bits and parameters; the speeder's figures are the
// project's rule as it stands), the exclusion as stored.

/** What a listed row reads from the respondents table (and the game's name). */
export interface ListedRespondent {
  id: number;
  status: number;
  quota_full: number | boolean | null;
  source: 'link' | 'sdk' | 'demo';
  game_id: number | null;
  game_name: string | null;
  portrait_id: string | null;
  started_at: number | string;
  finished_at: number | string | null;
  gender: string | null;
  age: number | null;
  city: string | null;
  education: string | null;
  language: string | null;
  flags: number;
  flag_params: string | null;
  exclusion: string | null;
  erased_at: number | string | null;
}

/** respondents.exclusion (JSON). */
export interface ExclusionRecord extends RespondentExclusion {
  /** The portrait whose place the exclusion freed (reconciliation), to take it back on restore. */
  freed?: string;
}

export function statusName(status: number, quotaFull: boolean): RespondentStatusName {
  if (status === RESPONDENT_STATUS.completed) return 'completed';
  if (status === RESPONDENT_STATUS.screenedOut) return quotaFull ? 'quotaFull' : 'screenedOut';
  return 'inProgress';
}

/** A duration in the reader's words: "41 s", "1 min 35 s". */
export function spoken(t: TranslationFunctions, ms: number): string {
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return m > 0 ? t.quality.duration.minutes({ m, s }) : t.quality.duration.seconds({ s });
}

export function reasonOf(t: TranslationFunctions, f: QualityFlagParams): string {
  const r = t.quality.reasons;
  switch (f.name) {
    case 'speeder': {
      const median = spoken(t, f.medianSeconds * 1000);
      const share = f.percent === 50 ? r.half() : r.share({ percent: f.percent, median });
      return r.speeder({
        took: spoken(t, f.seconds * 1000),
        share,
        threshold: spoken(t, f.thresholdSeconds * 1000),
      });
    }
    case 'straight-liner':
      return f.kind === 'matrix'
        ? r.matrix({ statements: f.statements, number: f.questionNumber })
        : r.scale({ count: f.count, from: f.questionNumber, to: f.lastQuestionNumber });
    case 'gibberish':
      return r.gibberish[f.rule]({ number: f.questionNumber, text: f.text });
    case 'duplicate':
      return r.duplicate[f.by]({ first: f.firstId });
  }
}

/** The flags of a row, with their reasons. */
export function flagsOf(
  t: TranslationFunctions,
  row: Pick<ListedRespondent, 'flags' | 'flag_params' | 'started_at' | 'finished_at'>,
  rule: SpeederRule | null,
): QualityFlag[] {
  if (!row.flags) return [];
  const stored = row.flag_params ? (JSON.parse(row.flag_params) as Record<string, QualityFlagParams>) : {};
  const out: QualityFlag[] = [];
  for (const name of flagNames(Number(row.flags))) {
    let params: QualityFlagParams | undefined = stored[name];
    if (name === 'speeder') {
      if (!rule || rule.thresholdMs === null || rule.medianMs === null || row.finished_at === null) continue;
      params = {
        name: 'speeder',
        seconds: Math.round((Number(row.finished_at) - Number(row.started_at)) / 1000),
        medianSeconds: Math.round(rule.medianMs / 1000),
        thresholdSeconds: Math.round(rule.thresholdMs / 1000),
        percent: rule.percent,
      };
    }
    if (params) out.push({ ...params, reason: reasonOf(t, params) } as QualityFlag);
  }
  return out;
}

export function exclusionOf(row: Pick<ListedRespondent, 'exclusion'>): ExclusionRecord | null {
  return row.exclusion ? (JSON.parse(row.exclusion) as ExclusionRecord) : null;
}

export function listRow(
  t: TranslationFunctions,
  row: ListedRespondent,
  content: ProjectContent,
  rule: SpeederRule | null,
  placeName: (id: string) => string,
): RespondentListRow {
  const finished = row.finished_at === null ? null : Number(row.finished_at);
  const started = Number(row.started_at);
  const portrait = row.portrait_id
    ? {
        id: row.portrait_id,
        name: content.portraits.find((p) => p.id === row.portrait_id)?.name ?? row.portrait_id,
      }
    : null;
  const exclusion = exclusionOf(row);
  return {
    id: row.id,
    status: statusName(row.status, !!Number(row.quota_full ?? 0)),
    source: row.source,
    game: row.game_id === null ? null : { id: row.game_id, name: row.game_name ?? '' },
    portrait,
    startedAt: started,
    finishedAt: finished,
    durationSeconds: finished === null ? null : Math.round((finished - started) / 1000),
    profile: {
      gender: row.gender,
      age: row.age,
      city: row.city,
      cityName: row.city === null ? null : placeName(row.city),
      education: row.education,
    },
    language: row.language,
    flags: flagsOf(t, row, rule),
    exclusion: exclusion && { reason: exclusion.reason, at: exclusion.at, author: exclusion.author },
    erasedAt: row.erased_at === null ? null : Number(row.erased_at),
  };
}
