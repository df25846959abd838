import { HttpError } from '../http/errors';
import { cityIds, regions } from '../data/cities';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent } from '../../src/domain/content/model';
import { ProjectStatus } from '../../src/domain/projects';
import { runFlow, type Attributes, type ReplyEntry } from '../../src/domain/flow';
import { SURVEY_TEXTS, type SurveyLocale, type SurveyTexts } from '../../src/i18n/survey';

// A respondent's state as stored (respondents.state), whether a project takes answers, and the
// errors the respondent page is told in its own language: shared by starting (start.ts) and
// answering (respond.ts).

export type Outcome = 'started' | 'completed' | 'screenedOut' | 'quotaFull';
export type Availability = 'open' | 'notStarted' | 'paused' | 'finished';

/** What respondents.state holds (JSON). */
export interface SurveyState {
  v: 1;
  seed: string;
  /** The questionnaire the respondent started in. */
  start: string;
  replies: ReplyEntry[];
  /** The order each question's answers (or matrix rows) were shown in, by question id. */
  orders: Record<string, string[]>;
  end: Outcome | null;
  /** Milliseconds between each page shown and its answer, by reply (issue 31; absent before it). */
  times?: number[];
}

const text = (pick: (s: SurveyTexts) => string) => (_t: unknown, locale: string) =>
  pick(SURVEY_TEXTS[(locale === 'en' ? 'en' : 'ru') as SurveyLocale]);
export const fail = (
  status: number,
  code: string,
  pick: (s: SurveyTexts) => string,
  extra: Record<string, unknown> = {},
) => new HttpError(status, text(pick), { code, ...extra });

/** Whether respondents may answer now, as the page says it. Only On rotation is open. */
export function availability(status: number): Availability {
  if (status === ProjectStatus.OnRotation) return 'open';
  if (status === ProjectStatus.Paused) return 'paused';
  if (
    [
      ProjectStatus.Stopped,
      ProjectStatus.ProjectFinished,
      ProjectStatus.CreatingReport,
      ProjectStatus.SurveyFinished,
    ].includes(status as never)
  )
    return 'finished';
  return 'notStarted';
}

export interface ProjectRef {
  id: number;
  status: number;
  template: string;
}

export function closedError(status: number) {
  const a = availability(status);
  return fail(409, `survey-${a}`, (s) => s.errors.closed, { state: a });
}

/** Fills the region from the city and drops a city or region that is not in the lookup. */
export function cleanAttributes(a: Attributes): Attributes {
  const out = { ...a };
  if (out.city && !cityIdSet().has(out.city)) out.city = null;
  if (out.city && !out.region) out.region = out.city.split(':')[0];
  if (out.region && !regions().has(out.region)) out.region = null;
  return out;
}
let cities: Set<string> | null = null;
export const cityIdSet = () => (cities ??= new Set(cityIds()));

/** The question of the respondent's first page (the funnel's "reached" before any answer). */
export function firstQuestion(content: ProjectContent, state: SurveyState): string | null {
  const next = runFlow(content, { questionnaireId: state.start, seed: state.seed }, []).next;
  return next.kind === 'page' ? next.question.id : null;
}

export function outcomeOf(r: { status: number; state: string }): Outcome {
  if (r.status === RESPONDENT_STATUS.completed) return 'completed';
  if (r.status === RESPONDENT_STATUS.screenedOut)
    return (JSON.parse(r.state) as SurveyState).end === 'quotaFull' ? 'quotaFull' : 'screenedOut';
  return 'started';
}
