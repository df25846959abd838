import type { Writable } from 'node:stream';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db';
import type { TranslationFunctions } from '../../../src/i18n/i18n-types';
import type { ProjectContent, Question } from '../../../src/domain/content/model';
import { EDUCATION_LEVELS, GENDERS } from '../../../src/domain/lookups';
import { contentLanguages, languageName } from '../../../src/domain/content/languages';
import { RESPONDENT_STATUS } from '../../db/tables-responses';
import { OTHER_ANSWER_ID, questionsOf } from '../shape';
import { DownloadAborted, READER_GONE_MS, drained } from '../workbook';
import type { AnswerRow } from '../../../src/domain/flow';
import { respondentPages, type ReportFile, type RespondentRow } from '../respondent-rows';
import {
  CaseWriter,
  MAX_STRING_WIDTH,
  SPSS_EPOCH_OFFSET,
  dictionary,
  type SavValue,
  type SavVariable,
} from './format';

// The report's SPSS file (type=stats&format=sav): one case per filtered respondent, read page by
// page as the workbook's raw sheet is, and written as they come with the reader's backpressure.
// Variable names are positions, so the same questionnaire always gives the same names: Q<n> for the
// n-th question in questionnaire order, Q<n>_<k> for the k-th answer of a multiple choice (1 chosen,
// 0 not, and the "Other" as the last), the k-th statement of a matrix or the k-th answer of a ranking
// (its rank), Q<n>_O for a choice question's "Other" text. Choices are coded by the answer's position
// (the "Other" after the last), with the answers' texts as value labels; open answers and places are
// strings as wide as the longest stored. The respondent's own columns come first.

type Read = (rows: AnswerRow[]) => SavValue;
interface Column {
  variable: SavVariable;
  questionId?: string;
  read?: Read;
  person?: (r: RespondentRow) => SavValue;
}

const isOther = (r: AnswerRow) => r.answer_id === null || r.answer_id === OTHER_ANSWER_ID;
const indexOf = (q: Question, id: string | null) => {
  const i = q.answers.findIndex((a) => a.id === id);
  return i < 0 ? null : i + 1;
};
const codes = (texts: string[]): [number, string][] => texts.map((t, i) => [i + 1, t]);

/** The longest stored text per question, in UTF-8 bytes (the width of its string variables). */
async function textWidths(db: Db, pid: number, questionIds: string[]): Promise<Map<string, number>> {
  if (questionIds.length === 0) return new Map();
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const bytes = pg ? sql<number>`max(octet_length(text))` : sql<number>`max(length(cast(text as blob)))`;
  const rows = await db
    .selectFrom('respondent_answers')
    .select(['question_id', bytes.as('w')])
    .where('project_id', '=', pid)
    .where('question_id', 'in', questionIds)
    .where('text', 'is not', null)
    .groupBy('question_id')
    .execute();
  return new Map(rows.map((r) => [r.question_id, Number(r.w)]));
}

const widthOf = (n: number | undefined) => Math.min(MAX_STRING_WIDTH, Math.max(8, n ?? 0));
const longest = (names: string[]) => widthOf(Math.max(0, ...names.map((n) => Buffer.byteLength(n))));

function questionColumns(
  q: Question,
  n: number,
  t: TranslationFunctions,
  widths: Map<string, number>,
  report: ReportFile,
  placeName: (id: string) => string,
): Column[] {
  const f = t.reports.file;
  const name = `Q${n}`;
  const num = (vname: string, label: string, read: Read, values?: [number, string][]): Column => ({
    variable: { type: 'number', name: vname, label, values },
    questionId: q.id,
    read,
  });
  const str = (vname: string, label: string, width: number, read: Read): Column => ({
    variable: { type: 'string', name: vname, label, width },
    questionId: q.id,
    read,
  });
  const otherText = () =>
    str(
      `${name}_O`,
      `${q.text}: ${f.other()}`,
      widthOf(widths.get(q.id)),
      (rows) => rows.find(isOther)?.text ?? null,
    );
  switch (q.category) {
    case 'oneAnswer':
    case 'screening':
    case 'qualification': {
      const labels = codes(q.answers.map((a) => a.text));
      if (q.other !== null) labels.push([q.answers.length + 1, f.other()]);
      const cols = [
        num(
          name,
          q.text,
          (rows) =>
            !rows[0] ? null : isOther(rows[0]) ? q.answers.length + 1 : indexOf(q, rows[0].answer_id),
          labels,
        ),
      ];
      if (q.other !== null) cols.push(otherText());
      return cols;
    }
    case 'fewAnswers': {
      const chosen: [number, string][] = [
        [0, t.reports.sav.notChosen()],
        [1, t.reports.sav.chosen()],
      ];
      const cols = q.answers.map((a, i) =>
        num(
          `${name}_${i + 1}`,
          `${q.text}: ${a.text}`,
          (rows) => (rows.length === 0 ? null : rows.some((r) => r.answer_id === a.id) ? 1 : 0),
          chosen,
        ),
      );
      if (q.other !== null) {
        cols.push(
          num(
            `${name}_${q.answers.length + 1}`,
            `${q.text}: ${f.other()}`,
            (rows) => (rows.length === 0 ? null : rows.some(isOther) ? 1 : 0),
            chosen,
          ),
        );
        cols.push(otherText());
      }
      return cols;
    }
    case 'matrix': {
      const labels = codes(q.answers.map((a) => a.text));
      return q.statements.map((s, i) =>
        num(
          `${name}_${i + 1}`,
          `${q.text}: ${s.text}`,
          (rows) => indexOf(q, rows.find((r) => r.statement_id === s.id)?.answer_id ?? null),
          labels,
        ),
      );
    }
    case 'sortable':
      return q.answers.map((a, i) =>
        num(
          `${name}_${i + 1}`,
          `${q.text}: ${a.text}`,
          (rows) => rows.find((r) => r.answer_id === a.id)?.value ?? null,
        ),
      );
    case 'fromTo':
    case 'slider':
    case 'nps':
    case 'starRating':
      return [
        {
          ...num(name, q.text, (rows) => rows[0]?.value ?? null),
          variable: { type: 'number', name, label: q.text, decimals: q.category === 'slider' ? 2 : 0 },
        },
      ];
    case 'cityAuto':
    case 'regionAuto': {
      const names = report.questions.find((x) => x.id === q.id)?.places?.map((p) => p.name) ?? [];
      return [str(name, q.text, longest(names), (rows) => (rows[0]?.text ? placeName(rows[0].text) : null))];
    }
    default:
      return [str(name, q.text, widthOf(widths.get(q.id)), (rows) => rows[0]?.text ?? null)];
  }
}

function personColumns(
  t: TranslationFunctions,
  content: ProjectContent,
  report: ReportFile,
  placeName: (id: string) => string,
): Column[] {
  const c = t.reports.file.columns;
  const s = t.reports.file.statuses;
  const num = (
    name: string,
    label: string,
    person: Column['person'],
    extra: Partial<Extract<SavVariable, { type: 'number' }>> = {},
  ): Column => ({
    variable: { type: 'number', name, label, ...extra },
    person,
  });
  const time = (ms: number | string | null) => (ms === null ? null : Number(ms) / 1000 + SPSS_EPOCH_OFFSET);
  const position = <T>(list: readonly T[], x: T | null) => {
    const i = x === null ? -1 : list.indexOf(x);
    return i < 0 ? null : i + 1;
  };
  const portraits = content.portraits.map((p) => p.id);
  const languages = contentLanguages(content);
  return [
    num('ID', c.id(), (r) => r.id),
    num('STATUS', c.status(), (r) => r.status, {
      values: [
        [RESPONDENT_STATUS.started, s.started()],
        [RESPONDENT_STATUS.completed, s.completed()],
        [RESPONDENT_STATUS.screenedOut, s.screenedOut()],
      ],
    }),
    num('PORTRAIT', c.portrait(), (r) => position(portraits, r.portrait_id), {
      values: codes(content.portraits.map((p) => p.name)),
    }),
    num('GENDER', c.gender(), (r) => position(GENDERS as readonly string[], r.gender), {
      values: codes(GENDERS.map((g) => t.projects.gender[g]())),
    }),
    num('AGE', c.age(), (r) => r.age),
    {
      variable: {
        type: 'string',
        name: 'CITY',
        label: c.city(),
        width: longest(report.cities.map((x) => x.name)),
      },
      person: (r) => (r.city === null ? null : placeName(r.city)),
    },
    {
      variable: {
        type: 'string',
        name: 'REGION',
        label: c.region(),
        width: longest(report.regions.map((x) => x.name)),
      },
      person: (r) => (r.region === null ? null : placeName(r.region)),
    },
    num('EDUC', c.education(), (r) => position(EDUCATION_LEVELS as readonly string[], r.education), {
      values: codes(EDUCATION_LEVELS.map((e) => t.projects.education[e]())),
    }),
    num('STARTED', c.startedAt(), (r) => time(r.started_at), { format: 'DATETIME' }),
    num('FINISHED', c.finishedAt(), (r) => time(r.finished_at), { format: 'DATETIME' }),
    num('DURATION', t.reports.sav.duration(), (r) =>
      r.finished_at === null ? null : Math.round((Number(r.finished_at) - Number(r.started_at)) / 1000),
    ),
    // Issue 31: excluded respondents are in the file only when asked for (includeExcluded=1), marked.
    ...(report.rows && report.rows.excluded !== 'none'
      ? [
          num('EXCLUDED', t.quality.file.excluded(), (r) => (r.excluded ? 1 : 0), {
            values: [
              [0, t.quality.file.no()],
              [1, t.quality.file.yes()],
            ],
          }),
        ]
      : []),
    // Issue 32: coded by the questionnaire's order of languages (1 the source), named in the file's
    // labels language ("English", or «английский» when labels=ru).
    num('LANGUAGE', c.language(), (r) => position(languages, r.language ?? languages[0]), {
      values: codes(languages.map((code) => languageName(code, report.textLanguage))),
    }),
  ];
}

/** Every variable of the file, in order, with how each case fills it. */
export async function savColumns(
  db: Db,
  report: ReportFile,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName: (id: string) => string,
): Promise<Column[]> {
  const refs = questionsOf(content);
  const texts = refs
    .filter((r) => r.question.category === 'open' || r.question.other !== null)
    .map((r) => r.question.id);
  const widths = await textWidths(db, report.project.id, texts);
  return [
    ...personColumns(t, content, report, placeName),
    ...refs.flatMap((ref, i) => questionColumns(ref.question, i + 1, t, widths, report, placeName)),
  ];
}

export async function writeSav(
  out: Writable,
  db: Db,
  report: ReportFile,
  content: ProjectContent,
  t: TranslationFunctions,
  placeName: (id: string) => string = (id) => id,
  readerGoneMs = READER_GONE_MS,
): Promise<void> {
  const columns = await savColumns(db, report, content, t, placeName);
  const variables = columns.map((c) => c.variable);
  out.write(
    dictionary(variables, { label: report.project.name, product: 'survey-backoffice', created: new Date() }),
  );
  const cases = new CaseWriter(variables);
  for await (const { respondents, answers } of respondentPages(
    db,
    report.project.id,
    report.filters,
    report.rows,
  )) {
    if (out.destroyed) throw new DownloadAborted();
    for (const r of respondents) {
      const perQ = answers.get(r.id);
      cases.add(columns.map((c) => (c.person ? c.person(r) : c.read!(perQ?.get(c.questionId!) ?? []))));
    }
    // A page at a time to the reader; while the stream's buffer is full, the reads wait too.
    if (!out.write(cases.take())) await drained(out, out, readerGoneMs);
  }
  out.end(cases.take(true));
}
