import type { Db } from '../db';
import { ensureQuotas, newToken, quotas, sha256 } from '../repos/respondents';
import { keepRespondent } from './respondent-cache';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { ProjectStatus } from '../../src/domain/projects';
import { matchesPortrait, startQuestionnaire, type Attributes } from '../../src/domain/flow';
import type { SurveyLocale } from '../../src/i18n/survey';
import { NOT_JUDGED } from '../responses/completion';
import { pickLanguage } from '../../src/domain/content/languages';
import { countStart } from '../ops/meters';
import { surveyContent } from './content-cache';
import {
  availability,
  cityIdSet,
  cleanAttributes,
  closedError,
  fail,
  firstQuestion,
  type ProjectRef,
  type SurveyState,
} from './survey-state';

/**
 * Starts a respondent: picks the portrait they fit that still has room (a ticket's portrait as it
 * is), or turns them away politely: `quotaFull` when the portraits they fit are full, `noMatch`
 * when they fit none (a target project's link: the survey looks for other people). Direct-link
 * respondents who fit no portrait are taken without one (the link is the researcher's own audience).
 */
export async function startRespondent(
  db: Db,
  input: {
    project: ProjectRef;
    source: 'link' | 'sdk' | 'demo';
    attributes?: Attributes;
    locale?: SurveyLocale;
    /**
     * The questionnaire languages wished for, in order of precedence (server/survey/language.ts):
     * the first one the questionnaire has is the respondent's, else its source.
     */
    languages?: readonly (string | null | undefined)[];
    gameId?: number | null;
    portraitId?: string | null;
    now?: number;
    /** The respondent page's browser marker (direct links), stored only as a hash (duplicates). */
    browser?: string;
  },
): Promise<
  { outcome: 'started'; respondentId: number; token: string } | { outcome: 'quotaFull' | 'noMatch' }
> {
  const { project } = input;
  if (availability(project.status) !== 'open') throw closedError(project.status);
  const now = input.now ?? Date.now();
  // A direct-link respondent picks the city from the lookup in the profile step: anything else is a
  // forged request, refused (a game's player city is the game's word, kept only when known).
  const city = input.attributes?.city;
  if (input.source === 'link' && city && !cityIdSet().has(city))
    throw fail(400, 'unknown-place', (s) => s.errors.unknownPlace, { field: 'attributes.city' });
  const content = await surveyContent(db, project.id);
  const who = cleanAttributes(input.attributes ?? {});
  await ensureQuotas(db, project.id, content.portraits);
  const room = new Map((await quotas(db, project.id)).map((q) => [q.portrait_id, q.completed < q.target]));
  let portrait = input.portraitId ? (content.portraits.find((p) => p.id === input.portraitId) ?? null) : null;
  if (portrait) {
    if (!room.get(portrait.id)) return { outcome: 'quotaFull' };
  } else if (content.portraits.length > 0) {
    const fits = content.portraits.filter((p) => matchesPortrait(p, who));
    portrait = fits.find((p) => room.get(p.id)) ?? null;
    if (!portrait && fits.length > 0) return { outcome: 'quotaFull' };
    if (!portrait && !project.template.startsWith('directLink')) return { outcome: 'noMatch' };
  }
  const questionnaireId = startQuestionnaire(content, portrait?.questionnaireId);
  if (!questionnaireId) throw closedError(ProjectStatus.Created);
  const token = newToken();
  const state: SurveyState = {
    v: 1,
    seed: newToken(),
    start: questionnaireId,
    replies: [],
    orders: {},
    end: null,
    times: [],
  };
  const values = {
    project_id: project.id,
    questionnaire_id: questionnaireId,
    portrait_id: portrait?.id ?? null,
    token_hash: sha256(token),
    source: input.source,
    game_id: input.gameId ?? null,
    player_id: who.playerId ?? null,
    gender: who.gender ?? null,
    age: who.age ?? null,
    city: who.city ?? null,
    region: who.region ?? null,
    education: who.education ?? null,
    platform: who.platform ?? null,
    status: RESPONDENT_STATUS.started,
    state: JSON.stringify(state),
    locale: input.locale ?? null,
    language: pickLanguage(content, input.languages ?? []),
    started_at: now,
    updated_at: now,
    finished_at: null,
    last_question_id: firstQuestion(content, state),
    browser_hash: input.browser ? sha256(input.browser) : null,
  };
  const row = await db.insertInto('respondents').values(values).returning('id').executeTakeFirstOrThrow();
  countStart(db);
  // Their first answer then needs no read (respondent-cache.ts).
  keepRespondent(db, { ...values, ...NOT_JUDGED, id: row.id, project_status: project.status });
  return { outcome: 'started', respondentId: row.id, token };
}
