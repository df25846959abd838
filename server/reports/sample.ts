import crypto from 'node:crypto';
import type { Db } from '../db';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import { contentLanguages, sourceLanguage } from '../../src/domain/content/languages';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { loadContent } from '../repos/content';
import { counterQuestions, countSampleRows } from './counters';

// Sample data for the report's tests, benchmarks and `npm run demo`: a questionnaire that uses every
// question category, respondents with realistic attributes drawn from a seeded generator (the same
// seed gives the same people), and a bulk insert of them as the answer rows the runner writes
// (server/db/tables-responses.ts: one row per picked answer, per matrix cell, per ranked answer, or
// one row for a value or a text).

export type Random = () => number;

/** mulberry32: a small seeded generator, so a failing property names the seed that reproduces it. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

/** Large Russian cities with their regions, weighted roughly by population. */
export const SAMPLE_PLACES = [
  { city: 'Москва', region: 'Москва', weight: 12 },
  { city: 'Санкт-Петербург', region: 'Санкт-Петербург', weight: 6 },
  { city: 'Новосибирск', region: 'Новосибирская область', weight: 2 },
  { city: 'Екатеринбург', region: 'Свердловская область', weight: 2 },
  { city: 'Казань', region: 'Республика Татарстан', weight: 2 },
  { city: 'Нижний Новгород', region: 'Нижегородская область', weight: 1 },
  { city: 'Красноярск', region: 'Красноярский край', weight: 1 },
  { city: 'Самара', region: 'Самарская область', weight: 1 },
  { city: 'Ростов-на-Дону', region: 'Ростовская область', weight: 1 },
  { city: 'Владивосток', region: 'Приморский край', weight: 1 },
] as const;
const PLACE_BAG = SAMPLE_PLACES.flatMap((p) => Array<typeof p>(p.weight).fill(p));

export interface SampleAnswer {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  text: string | null;
}

export interface SampleRespondent {
  portrait_id: string | null;
  gender: string | null;
  age: number | null;
  city: string | null;
  region: string | null;
  education: string | null;
  platform: string | null;
  status: number;
  started_at: number;
  finished_at: number | null;
  /** The question shown last (the next one for those in progress; 018, the funnel). */
  last_question_id: string | null;
  /** The questionnaire language answered in (021); the content's source when absent. */
  language?: string;
  answers: SampleAnswer[];
  /** Excluded from the report (issue 31): tests mark who they exclude, to count the others. */
  excluded?: boolean;
}

const texts = (list: string[]) => list.map((text) => newAnswer({ text }));

/** One question of every category (13), in a questionnaire, with two portraits. */
export function sampleContent(opts: { extraQuestions?: number } = {}): ProjectContent {
  const q = (partial: Partial<Question>) => newQuestion(partial);
  const questions: Question[] = [
    q({
      text: 'Как часто вы играете в мобильные игры?',
      category: 'screening',
      answers: [
        newAnswer({ text: 'Каждый день', screening: 'allow' }),
        newAnswer({ text: 'Несколько раз в неделю', screening: 'allow' }),
        newAnswer({ text: 'Не играю', screening: 'deny' }),
      ],
    }),
    q({
      text: 'Какой жанр вам ближе всего?',
      category: 'oneAnswer',
      other: '',
      answers: texts(['Головоломки', 'Стратегии', 'Шутеры', 'Ролевые']),
    }),
    q({
      text: 'На каких устройствах вы играете?',
      category: 'fewAnswers',
      other: '',
      answers: texts(['Телефон', 'Планшет', 'Компьютер', 'Консоль']),
    }),
    q({
      text: 'Сколько вы тратите на игры в месяц?',
      category: 'qualification',
      answers: texts(['Ничего', 'До 500 ₽', '500–2000 ₽', 'Больше 2000 ₽']),
    }),
    q({
      text: 'Сколько часов в неделю вы играете?',
      category: 'fromTo',
      scale: { min: 0, max: 40, step: 1 },
    }),
    q({ text: 'Что бы вы улучшили в игре?', category: 'open' }),
    q({ text: 'Оцените игру', category: 'starRating', stars: 5 }),
    q({ text: 'Насколько сложна игра?', category: 'slider', scale: { min: 0, max: 10, step: 0.5 } }),
    q({ text: 'Порекомендуете ли вы игру друзьям?', category: 'nps' }),
    q({
      text: 'Расставьте по важности',
      category: 'sortable',
      answers: texts(['Сюжет', 'Графика', 'Музыка', 'Сообщество']),
    }),
    q({
      text: 'Оцените стороны игры',
      category: 'matrix',
      answers: texts(['Плохо', 'Нормально', 'Отлично']),
      statements: [
        newStatement({ text: 'Графика' }),
        newStatement({ text: 'Управление' }),
        newStatement({ text: 'Звук' }),
        // Four rows: a matrix a straight-liner can be caught on (issue 31).
        newStatement({ text: 'Сюжет' }),
      ],
    }),
    q({ text: 'В каком регионе вы живёте?', category: 'regionAuto' }),
    q({ text: 'В каком городе вы живёте?', category: 'cityAuto' }),
  ];
  for (let i = 0; i < (opts.extraQuestions ?? 0); i++)
    questions.push(
      q({
        text: `Дополнительный вопрос ${i + 1}`,
        category: 'oneAnswer',
        answers: texts(['Да', 'Скорее да', 'Скорее нет', 'Нет']),
      }),
    );
  const qn = newQuestionnaire({ blocks: [newBlock({ name: 'Основной блок', questions })] });
  return {
    questionnaires: [qn],
    portraits: [
      newPortrait({
        name: 'Молодёжь',
        respondents: 7000,
        questionnaireId: qn.id,
        params: [{ field: 'age', values: [], min: 14, max: 29 }],
      }),
      newPortrait({
        name: 'Взрослые',
        respondents: 5000,
        questionnaireId: qn.id,
        params: [{ field: 'age', values: [], min: 30, max: 99 }],
      }),
    ],
  };
}

function answersFor(r: Random, q: Question, place: { city: string; region: string }): SampleAnswer[] {
  const row = (a: Partial<SampleAnswer>): SampleAnswer => ({
    question_id: q.id,
    answer_id: null,
    statement_id: null,
    value: null,
    text: null,
    ...a,
  });
  switch (q.category) {
    case 'screening': {
      // Most respondents pass the screening; about one in ten is screened out.
      const deny = q.answers.filter((a) => a.screening === 'deny');
      const allow = q.answers.filter((a) => a.screening !== 'deny');
      return [row({ answer_id: pick(r, deny.length > 0 && r() < 0.1 ? deny : allow).id })];
    }
    case 'oneAnswer':
    case 'qualification':
      if (q.other !== null && r() < 0.08)
        return [row({ text: pick(r, ['Гонки', 'Симуляторы', 'Карточные']) })];
      return [row({ answer_id: pick(r, q.answers).id })];
    case 'fewAnswers': {
      const picked = q.answers.filter(() => r() < 0.45).map((a) => row({ answer_id: a.id }));
      if (q.other !== null && r() < 0.05) picked.push(row({ text: 'Умные часы' }));
      return picked.length > 0 ? picked : [row({ answer_id: q.answers[0].id })];
    }
    case 'fromTo':
      return [row({ value: Math.min(q.scale!.max, Math.round(-Math.log(1 - r()) * 8)) })];
    case 'slider':
      return [row({ value: int(r, 0, 20) / 2 })];
    case 'nps':
      return [row({ value: Math.min(10, int(r, 3, 10) + (r() < 0.3 ? 1 : 0)) })];
    case 'starRating':
      return [row({ value: int(r, r() < 0.7 ? 3 : 1, q.stars ?? 5) })];
    case 'open':
      return r() < 0.6
        ? [
            row({
              text: pick(r, [
                'Больше уровней',
                'Меньше рекламы',
                'Играть с друзьями',
                'Всё нравится',
                'Ночной режим',
              ]),
            }),
          ]
        : [];
    case 'sortable': {
      const order = [...q.answers].sort(() => r() - 0.5);
      return order.map((a, i) => row({ answer_id: a.id, value: i + 1 }));
    }
    case 'matrix':
      return q.statements.map((s) => row({ statement_id: s.id, answer_id: pick(r, q.answers).id }));
    case 'regionAuto':
      return [row({ text: place.region })];
    case 'cityAuto':
      return [row({ text: place.city })];
  }
}

/** A respondent with realistic attributes; screened out at the screening question's "deny" answer. */
export function sampleRespondent(r: Random, content: ProjectContent, now = Date.now()): SampleRespondent {
  const qn = content.questionnaires[0];
  const questions = qn.blocks.flatMap((b) => b.questions);
  const place = pick(r, PLACE_BAG);
  const age = Math.min(70, 14 + Math.floor(-Math.log(1 - r()) * 14));
  const portrait = content.portraits.find((p) => {
    const a = p.params.find((x) => x.field === 'age');
    return a && age >= (a.min ?? 0) && age <= (a.max ?? 200);
  });
  const started = now - int(r, 0, 14 * 24 * 3600) * 1000;
  const answers: SampleAnswer[] = [];
  let status: number = RESPONDENT_STATUS.completed;
  // Some stop halfway through.
  const stopAt = r() < 0.12 ? int(r, 1, questions.length - 1) : questions.length;
  let last = stopAt < questions.length ? stopAt : questions.length - 1;
  for (let i = 0; i < stopAt; i++) {
    const q = questions[i];
    const got = answersFor(r, q, place);
    answers.push(...got);
    if (
      q.category === 'screening' &&
      got.some((a) => q.answers.find((x) => x.id === a.answer_id)?.screening === 'deny')
    ) {
      status = RESPONDENT_STATUS.screenedOut;
      last = i;
      break;
    }
  }
  if (status === RESPONDENT_STATUS.completed && stopAt < questions.length) status = RESPONDENT_STATUS.started;
  return {
    portrait_id: portrait?.id ?? null,
    gender: r() < 0.03 ? null : r() < 0.52 ? 'female' : 'male',
    age,
    city: place.city,
    region: place.region,
    education: pick(r, [...EDUCATION_LEVELS, 'secondary', 'higher', 'vocational']),
    platform: pick(r, ['android', 'ios', 'web']),
    status,
    started_at: started,
    finished_at: status === RESPONDENT_STATUS.started ? null : started + int(r, 60, 900) * 1000,
    last_question_id: questions[last].id,
    answers,
  };
}

export function sampleRespondents(seed: number, count: number, content: ProjectContent): SampleRespondent[] {
  const r = seeded(seed);
  const now = 1_780_000_000_000;
  const languages = contentLanguages(content);
  // In a questionnaire with several languages every fourth respondent answers in the second one
  // (by position, so the random answers are those of a single-language questionnaire).
  return Array.from({ length: count }, (_, i) => ({
    ...sampleRespondent(r, content, now),
    ...(languages.length > 1 && { language: languages[i % 4 === 3 ? 1 : 0] }),
  }));
}

/**
 * Writes respondents and their answer rows directly, in batches (many rows per INSERT), and adds
 * them to the report's counters. Not the runner's path: tests and benchmarks use it to put exactly
 * the rows they count.
 */
export async function insertRespondents(
  db: Db,
  pid: number,
  questionnaireId: string,
  list: SampleRespondent[],
  source: 'link' | 'sdk' | 'demo' = 'link',
): Promise<number[]> {
  const ids: number[] = [];
  const content = (await loadContent(db, pid)).content;
  const questions = counterQuestions(content);
  const written = sourceLanguage(content);
  for (let i = 0; i < list.length; i += 500) {
    const batch = list.slice(i, i + 500);
    const hashes = batch.map(() => crypto.randomBytes(16).toString('hex'));
    const rows = await db
      .insertInto('respondents')
      .values(
        batch.map((p, j) => ({
          project_id: pid,
          questionnaire_id: questionnaireId,
          portrait_id: p.portrait_id,
          token_hash: hashes[j],
          source,
          game_id: null,
          player_id: null,
          gender: p.gender,
          age: p.age,
          city: p.city,
          region: p.region,
          education: p.education,
          platform: p.platform,
          status: p.status,
          state: '{}',
          locale: 'ru',
          started_at: p.started_at,
          updated_at: p.finished_at ?? p.started_at,
          finished_at: p.finished_at,
          last_question_id: p.last_question_id,
          language: p.language ?? written,
        })),
      )
      .returning(['id', 'token_hash'])
      .execute();
    const byHash = new Map(rows.map((r) => [r.token_hash, Number(r.id)]));
    const batchIds = hashes.map((h) => byHash.get(h)!);
    ids.push(...batchIds);
    const answers = batch.flatMap((p, j) =>
      p.answers.map((a) => ({ ...a, respondent_id: batchIds[j], project_id: pid })),
    );
    for (let k = 0; k < answers.length; k += 2000)
      await db
        .insertInto('respondent_answers')
        .values(answers.slice(k, k + 2000))
        .execute();
    await countSampleRows(
      db,
      pid,
      questions,
      batch.map((p, j) => ({ ...p, id: batchIds[j], language: p.language ?? written })),
    );
  }
  return ids;
}
