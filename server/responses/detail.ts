import type { Db } from '../db';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { Reply, ReplyEntry } from '../../src/domain/flow';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { QualityFlag, RespondentAnswer, RespondentDetail } from '../../src/domain/responses';
import { CATEGORY_RULES } from '../../src/domain/content/categories';
import { OTHER_ANSWER_ID } from '../reports/shape';
import { questionsById } from './completion';
import { rowColumns } from './list';
import { listRow, type ListedRespondent } from './rows';
import { storedRule } from './speeders';
import { notFoundRespondent } from './errors';

// GET /project/respondent: one respondent's answers in the order they were asked, from the state the
// runner's answers wrote (the replies, the order each question's answers were shown in, the time of
// each page). Respondents written in bulk (tests, benchmarks) have no replies in their state: their
// answer rows are read back into replies, in questionnaire order, with no order shown and no times.

interface StoredState {
  replies?: ReplyEntry[];
  orders?: Record<string, string[]>;
  times?: number[];
}

type AnswerRow = {
  question_id: string;
  answer_id: string | null;
  statement_id: string | null;
  value: number | null;
  text: string | null;
};

/** Replies rebuilt from answer rows (replyRows backwards), in questionnaire order. */
function repliesFromRows(content: ProjectContent, rows: AnswerRow[]): ReplyEntry[] {
  const byQuestion = new Map<string, AnswerRow[]>();
  for (const r of rows) {
    const list = byQuestion.get(r.question_id);
    if (list) list.push(r);
    else byQuestion.set(r.question_id, [r]);
  }
  const out: ReplyEntry[] = [];
  for (const [id, { question: q }] of questionsById(content)) {
    const list = byQuestion.get(id);
    if (!list) continue;
    const reply: Reply = {};
    if (q.category === 'matrix')
      reply.cells = Object.fromEntries(
        list.filter((r) => r.statement_id && r.answer_id).map((r) => [r.statement_id!, r.answer_id!]),
      );
    else if (q.category === 'sortable')
      reply.answers = [...list].sort((a, b) => Number(a.value) - Number(b.value)).map((r) => r.answer_id!);
    else if (CATEGORY_RULES[q.category].answers) {
      reply.answers = list
        .filter((r) => r.answer_id && r.answer_id !== OTHER_ANSWER_ID)
        .map((r) => r.answer_id!);
      const other = list.find(
        (r) => (r.answer_id === null || r.answer_id === OTHER_ANSWER_ID) && r.text !== null,
      );
      if (other) reply.other = other.text;
    } else if (list[0].value !== null) reply.value = Number(list[0].value);
    else reply.text = list[0].text;
    out.push({ questionId: id, reply });
  }
  return out;
}

function answerOf(
  q: Question,
  number: number,
  questionnaireId: string,
  blockId: string,
  reply: Reply,
  shownIds: string[] | undefined,
  ms: number | undefined,
  placeName: (id: string) => string,
  flagged: RespondentAnswer['flagged'],
): RespondentAnswer {
  const answerText = new Map(q.answers.map((a) => [a.id, a.text]));
  const statementText = new Map(q.statements.map((s) => [s.id, s.text]));
  const texts = q.category === 'matrix' ? statementText : answerText;
  const shown = (shownIds ?? (q.category === 'matrix' ? q.statements : q.answers).map((x) => x.id)).map(
    (id) => ({ id, text: texts.get(id) ?? id }),
  );
  const out: RespondentAnswer = {
    questionId: q.id,
    questionnaireId,
    blockId,
    number,
    category: q.category,
    text: q.text,
    picked: [],
    shown,
    seconds: ms === undefined || ms < 0 ? null : Math.round(ms / 100) / 10,
    flagged,
  };
  const rules = CATEGORY_RULES[q.category];
  if (q.category === 'matrix') {
    const order = shown.map((s) => s.id);
    out.cells = Object.entries(reply.cells ?? {})
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([statementId, answerId]) => ({
        statementId,
        statement: statementText.get(statementId) ?? statementId,
        answerId,
        answer: answerText.get(answerId) ?? answerId,
      }));
  } else if (q.category === 'sortable') {
    out.ranked = (reply.answers ?? []).map((id, i) => ({ id, text: answerText.get(id) ?? id, rank: i + 1 }));
  } else if (rules.answers) {
    const picked = new Set(reply.answers ?? []);
    out.picked = shown.filter((a) => picked.has(a.id));
    out.other = reply.other ?? null;
  } else if (rules.scale || rules.stars) {
    out.value = reply.value ?? null;
  } else if (q.category === 'cityAuto' || q.category === 'regionAuto') {
    const id = reply.text ?? null;
    out.place = id === null ? null : { id, name: placeName(id) };
  } else {
    out.written = reply.text ?? null;
  }
  return out;
}

/** The questions each flag points at, to mark the answers on the page. */
function flaggedQuestions(flags: QualityFlag[], path: string[], numbers: Map<string, number>) {
  const marks = new Map<string, RespondentAnswer['flagged']>();
  const mark = (id: string, name: QualityFlag['name']) => marks.set(id, [...(marks.get(id) ?? []), name]);
  for (const f of flags) {
    if (f.name === 'gibberish') mark(f.questionId, f.name);
    if (f.name === 'straight-liner') {
      if (f.kind === 'matrix') mark(f.questionId, f.name);
      else {
        // The run: from its first question, `count` pages along the respondent's path.
        const from = path.indexOf(f.questionId);
        for (const id of path.slice(from, from + f.count)) if (numbers.has(id)) mark(id, f.name);
      }
    }
  }
  return marks;
}

export async function respondentDetail(
  db: Db,
  projectId: number,
  id: number,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName: (id: string) => string,
): Promise<RespondentDetail> {
  const [row, rule] = await Promise.all([
    db
      .selectFrom('respondents')
      .leftJoin('games', 'games.id', 'respondents.game_id')
      .select([...rowColumns(), 'respondents.state'])
      .where('respondents.id', '=', id)
      .where('respondents.project_id', '=', projectId)
      .executeTakeFirst(),
    storedRule(db, projectId),
  ]);
  if (!row) throw notFoundRespondent(id);
  const respondent = listRow(t, row as unknown as ListedRespondent, content, rule, placeName);
  const state = JSON.parse(row.state || '{}') as StoredState;
  const replies =
    state.replies ??
    (respondent.erasedAt !== null
      ? []
      : repliesFromRows(
          content,
          await db
            .selectFrom('respondent_answers')
            .select(['question_id', 'answer_id', 'statement_id', 'value', 'text'])
            .where('respondent_id', '=', id)
            .orderBy('id')
            .execute(),
        ));
  const byId = questionsById(content);
  const where = new Map<string, { questionnaireId: string; blockId: string }>();
  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions) where.set(q.id, { questionnaireId: qn.id, blockId: b.id });
  const numbers = new Map([...byId].map(([qid, x]) => [qid, x.number]));
  const marks = flaggedQuestions(
    respondent.flags,
    replies.map((r) => r.questionId),
    numbers,
  );
  const answers: RespondentAnswer[] = [];
  replies.forEach((r, i) => {
    const q = byId.get(r.questionId);
    const place = where.get(r.questionId);
    if (!q || !place) return;
    answers.push(
      answerOf(
        q.question,
        q.number,
        place.questionnaireId,
        place.blockId,
        r.reply,
        state.orders?.[r.questionId],
        state.times?.[i],
        placeName,
        marks.get(r.questionId) ?? [],
      ),
    );
  });
  return { respondent, answers, pageTimes: Array.isArray(state.times) };
}
