import * as v from 'valibot';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, unauthorized } from '../http/errors';
import { fieldError, parse } from '../http/validate';
import { hit, peek } from '../http/ratelimit';
import { gameBySecrets } from '../repos/games';
import { respondentByToken } from '../repos/respondents';
import { searchCities, regions } from '../data/cities';
import {
  AnswerBody,
  availability,
  limitAnswers,
  limitRate,
  outcomeOf,
  publicContent,
  respondentForAnswer,
  startRespondent,
  submitPage,
  surveyContent,
  type SurveyState,
} from '../survey/respond';
import { issueTicket, ticketByToken, useTicket } from '../survey/tickets';
import { LanguageTag, languageChoice } from '../survey/language';
import { acceptedLanguages, sourceLanguage } from '../../src/domain/content/languages';
import { withStoredFields } from '../players/record';
import { countOffer } from '../players/stats';
import { AttributesSchema, linkProfile, ReplySchema, type Attributes } from '../../src/domain/flow';
import { SdkHandshakeBody } from '../../src/domain/games';
import { GameStatus } from '../../src/domain/gameStatus';
import { issueKey, messageParams, objectMessage } from '../../src/domain/validation';
import { SURVEY_TEXTS, type SurveyLocale } from '../../src/i18n/survey';

// The respondent's calls (public: the link's token, a ticket or the resume token are the
// credentials) and the game SDK's call for a survey. docs/api.md describes them.

/** Requests per minute. Exported so the benchmark can lift the per-address limit (one address there). */
export const SURVEY_LIMITS = {
  startPerAddress: 600,
  answerPerRespondent: 120,
  answerPerAddress: 3000,
  /** The profile step's city lookup: public (the link is), so bounded per address. */
  linkPlacesPerAddress: 600,
};

const HOUR = 3600_000;
/** As the handshake (POST /games/sdk): failed credentials an hour from one address. */
const SDK_FAILURES_PER_HOUR = 60;

/** Strict, as every body but the SDK's (issue 26): an unknown field is refused by name. */
export const StartBody = v.optional(
  v.strictObject(
    {
      attributes: v.optional(AttributesSchema),
      locale: v.optional(v.picklist(['ru', 'en'], 'invalid')),
      /** The questionnaire language the page asks for (issue 32): it counts when the questionnaire has it. */
      language: v.optional(LanguageTag),
      /** The page's random marker kept in localStorage (issue 31: duplicates); stored only as a hash. */
      browser: v.optional(v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{16,64}$/, 'invalid'))),
    },
    objectMessage,
  ),
  {},
);
/** GET /survey/:token?lang=: the link's language wish (one that is malformed or not offered is passed over). */
export const LinkQuery = v.object({ lang: v.optional(v.string()) });
const linkLang = (query: unknown) => {
  const q = v.safeParse(LinkQuery, query);
  const lang = q.success ? q.output.lang : undefined;
  return lang && v.is(LanguageTag, lang) ? lang : null;
};
export const PlacesQuery = v.object({
  kind: v.picklist(['city', 'region']),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  /** Cities of this region only (a city question's region). */
  region: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,10}$/))),
});

/** The cities lookup as respondents see it: ten places, names in their language. */
function findPlaces(q: v.InferOutput<typeof PlacesQuery>, locale: SurveyLocale) {
  if (q.kind === 'city')
    return searchCities({ search: q.search, limit: 10, locale, region: q.region }).map((c) => ({
      id: c.id,
      name: c.name,
      detail: c.region.name,
    }));
  const needle = q.search.toLowerCase();
  const out: { id: string; name: string; detail: string }[] = [];
  for (const [id, n] of regions()) {
    const name = locale === 'ru' ? n.ru : n.en;
    if (!needle || name.toLowerCase().includes(needle) || n.en.toLowerCase().includes(needle))
      out.push({ id, name, detail: '' });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, locale)).slice(0, 10);
}
const PlayerSchema = v.object({
  id: v.pipe(
    v.union([v.string(), v.pipe(v.number(), v.integer(), v.transform(String))]),
    v.string(),
    v.trim(),
    v.minLength(1),
    v.maxLength(128),
  ),
  gender: v.optional(v.nullable(AttributesSchema.entries.gender.wrapped.wrapped)),
  age: v.optional(v.nullable(AttributesSchema.entries.age.wrapped.wrapped)),
  city: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(120)))),
  education: v.optional(v.nullable(AttributesSchema.entries.education.wrapped.wrapped)),
  platform: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
});
export const SdkSurveyBody = v.object({
  ...SdkHandshakeBody.entries,
  player: PlayerSchema,
  /** The player's language (issue 32): the runner's first wish, before the link's ?lang= and the browser's. */
  locale: v.optional(v.nullable(LanguageTag)),
});

const notFoundError = () =>
  new HttpError(404, (_t, locale) => SURVEY_TEXTS[locale as SurveyLocale].errors.notFound, {
    code: 'survey-not-found',
  });

/** The link's token from the path: anything that cannot be one is a link that does not exist (404). */
function linkToken(params: unknown): string {
  const token = (params as { token?: unknown }).token;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw notFoundError();
  return token;
}

export default async function surveyRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function respondent(req: FastifyRequest) {
    const token = String(req.headers['x-respondent-token'] ?? '');
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw notFoundError();
    const r = await respondentByToken(db, token);
    if (!r) throw notFoundError();
    return r;
  }

  /** What the page at /s/:token shows first: open, or why not (never a 404 for a real token). */
  app.get('/survey/:token', async (req) => {
    const token = linkToken(req.params);
    const project = await db
      .selectFrom('projects')
      .select(['id', 'status', 'template'])
      .where('link_token', '=', token)
      .executeTakeFirst();
    if (project) {
      const content = project.status === 3 ? await surveyContent(db, project.id) : null;
      const profile = content
        ? linkProfile(project.template.startsWith('directLink'), content.portraits)
        : { ask: 'none', fields: [] };
      return {
        kind: 'link',
        state: availability(project.status),
        profile: profile.ask !== 'none',
        profileRequired: profile.ask === 'required',
        profileFields: profile.fields,
        ...(content &&
          languageChoice(content, {
            query: linkLang(req.query),
            acceptLanguage: req.headers['accept-language'],
          })),
      };
    }
    const ticket = await ticketByToken(db, token);
    if (!ticket) throw notFoundError();
    const p = await db
      .selectFrom('projects')
      .select(['status'])
      .where('id', '=', ticket.project_id)
      .executeTakeFirst();
    const used = ticket.used_at !== null || Number(ticket.expires_at) <= Date.now();
    const content = p?.status === 3 ? await surveyContent(db, ticket.project_id) : null;
    return {
      kind: 'ticket',
      state: availability(p?.status ?? 6),
      profile: false,
      profileRequired: false,
      profileFields: [],
      used,
      ...(content &&
        languageChoice(content, {
          sdkLocale: ticket.locale,
          query: linkLang(req.query),
          acceptLanguage: req.headers['accept-language'],
        })),
    };
  });

  app.post('/survey/:token/start', async (req) => {
    const token = linkToken(req.params);
    const body = parse(StartBody, req.body ?? {});
    await limitRate(db, [{ key: `survey:start:${req.ip}`, max: SURVEY_LIMITS.startPerAddress }]);
    const locale = body.locale ?? (req.locale as SurveyLocale);
    const project = await db
      .selectFrom('projects')
      .select(['id', 'status', 'template'])
      .where('link_token', '=', token)
      .executeTakeFirst();
    let started;
    // The page's own choice first (it resolved ?lang= and the browser's languages, or the respondent
    // picked one), then the SDK's locale, then what this request's Accept-Language says.
    const accepted = acceptedLanguages(req.headers['accept-language']);
    if (project) {
      started = await startRespondent(db, {
        project,
        source: 'link',
        attributes: body.attributes,
        locale,
        languages: [body.language, ...accepted],
        browser: body.browser,
      });
    } else {
      const ticket = await ticketByToken(db, token);
      if (!ticket) throw notFoundError();
      const p = await db
        .selectFrom('projects')
        .select(['id', 'status', 'template'])
        .where('id', '=', ticket.project_id)
        .executeTakeFirstOrThrow();
      if (availability(p.status) !== 'open') return { state: availability(p.status) };
      if (!(await useTicket(db, ticket.token_hash)))
        throw new HttpError(409, (_t, l) => SURVEY_TEXTS[l as SurveyLocale].usedTicket, {
          code: 'ticket-used',
        });
      const player = JSON.parse(ticket.player) as Attributes;
      started = await startRespondent(db, {
        project: p,
        source: 'sdk',
        attributes: player,
        locale,
        languages: [body.language, ticket.locale, ...accepted],
        gameId: ticket.game_id,
        portraitId: ticket.portrait_id,
      });
    }
    // A visitor who fits no portrait of a target project's link is told the survey looks for others.
    if (started.outcome !== 'started') return { state: started.outcome };
    return { state: 'started', token: started.token };
  });

  /** Everything the runner needs to continue: the questionnaires, where it started, the replies so far. */
  app.get('/survey/session', async (req) => {
    const r = await respondent(req);
    const state = JSON.parse(r.state) as SurveyState;
    const project = await db
      .selectFrom('projects')
      .select(['status'])
      .where('id', '=', r.project_id)
      .executeTakeFirst();
    const status = outcomeOf(r);
    const open = availability(project?.status ?? 6);
    const content = status === 'started' && open === 'open' ? await surveyContent(db, r.project_id) : null;
    return {
      status,
      state: open,
      content: content && publicContent(content),
      start: { questionnaireId: state.start, seed: state.seed },
      replies: state.replies,
      locale: r.locale,
      /** The questionnaire language of the respondent's last page (a resumed tab continues in it). */
      language: r.language ?? (content ? sourceLanguage(content) : null),
    };
  });

  // The platform's hottest call: its body and reply are a few hundred bytes (under the compression
  // threshold either way), so the compression hooks are not run for it at all.
  app.post('/survey/answer', { compress: false, decompress: false }, async (req) => {
    const token = String(req.headers['x-respondent-token'] ?? '');
    const found = /^[A-Za-z0-9_-]{10,64}$/.test(token) ? await respondentForAnswer(db, token) : undefined;
    if (!found) throw notFoundError();
    const r = found.respondent;
    const limits = [
      { key: `survey:answer:r:${r.id}`, max: SURVEY_LIMITS.answerPerRespondent },
      { key: `survey:answer:ip:${req.ip}`, max: SURVEY_LIMITS.answerPerAddress },
    ];
    const body = v.safeParse(AnswerBody, req.body);
    const reply = body.success ? v.safeParse(ReplySchema, body.output.reply) : null;
    if (!body.success || !reply?.success) {
      limitAnswers(db, limits);
      if (!body.success) parse(AnswerBody, req.body);
      // The reply's own problems, named from the body's top (`reply.value`), in the same plain words.
      throw fieldError(
        reply!.issues!.map((issue) => ({
          field: ['reply', v.getDotPath(issue)].filter(Boolean).join('.'),
          key: issueKey(issue),
          params: messageParams(issue),
        })),
        { code: 'invalid-answer' },
      );
    }
    const { at, questionId, language } = body.output;
    return submitPage(
      db,
      r,
      { at, questionId, reply: reply.output, language },
      Date.now(),
      limits,
      found.cached,
    );
  });

  /** Places for the region and city questions (the cities lookup, for respondents). */
  app.get('/survey/places', async (req) => {
    await respondent(req);
    return findPlaces(parse(PlacesQuery, req.query), req.locale as SurveyLocale);
  });

  /** Cities for the profile step of a direct link, before the respondent has started. */
  app.get('/survey/:token/places', async (req) => {
    const token = linkToken(req.params);
    const q = parse(PlacesQuery, req.query);
    await limitRate(db, [{ key: `survey:places:${req.ip}`, max: SURVEY_LIMITS.linkPlacesPerAddress }]);
    const project = await db
      .selectFrom('projects')
      .select(['id'])
      .where('link_token', '=', token)
      .executeTakeFirst();
    if (!project) throw notFoundError();
    return findPlaces(q, req.locale as SurveyLocale);
  });

  /** The game SDK asks for a survey for one player: a one-time runner address, or 204. */
  app.post('/games/sdk/survey', async (req, reply) => {
    // Failed credentials count with the handshake's (same key, same limit): guessing is slow on both.
    const failKey = `sdk:ip:${req.ip}`;
    const failures = await peek(db, failKey, HOUR);
    if (failures.count >= SDK_FAILURES_PER_HOUR) {
      const minutes = Math.max(1, Math.ceil(failures.retryInMs / 60_000));
      throw new HttpError(429, (t) => t.errors.tooManyRequests({ minutes }), {
        code: 'too-many-attempts',
        headers: { 'retry-after': String(Math.ceil(failures.retryInMs / 1000)) },
      });
    }
    const body = parse(SdkSurveyBody, req.body);
    const game = await gameBySecrets(db, body.apiKey, body.token);
    if (!game) {
      await hit(db, failKey, HOUR);
      throw unauthorized((t) => t.games.errors.wrongSecrets(), { code: 'wrong-sdk-credentials' });
    }
    if (game.status === GameStatus.Disabled)
      throw new HttpError(403, (t) => t.games.errors.disabled(), { code: 'game-disabled' });
    if (game.status !== GameStatus.Connected) return reply.status(204).send();
    const p = body.player;
    // What the call omits comes from the player's record (server/players), for portrait matching.
    const player = await withStoredFields(db, game.id, {
      playerId: p.id,
      gender: p.gender ?? null,
      age: p.age ?? null,
      city: p.city ?? null,
      region: p.city?.includes(':') ? p.city.split(':')[0] : null,
      education: p.education ?? null,
      platform: p.platform ?? null,
    });
    const ticket = await issueTicket(db, game.id, player, body.locale ?? null);
    if (!ticket) return reply.status(204).send();
    await countOffer(db, game.id);
    return { url: `${config.publicUrl}/s/${ticket.token}`, expiresAt: ticket.expiresAt };
  });
}
