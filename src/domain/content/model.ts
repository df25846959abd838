import * as v from 'valibot';
import { CONTROL_CHARS, INT32_MAX, objectMessage, queryId } from '../validation';
import { HARD_CAP, LIMITS, TEXT_MAX } from './limits';
import { SUPPORTED_LANGUAGES, isSupportedLanguage } from './languages';

// The content of a project (spec section 3): questionnaires → blocks → questions → answers, plus the
// target portraits. (Name, priority, target platforms and settings belong to the project itself:
// PUT /project and /project/project-settings.) This is what GET /project answers, what
// POST /project stores, what the editor edits and what the Dexie draft keeps. Every item carries a
// stable id so that redirects, recall filters and undo patches survive moves and renames.
//
// Messages are i18n keys of the `validation` group. Fields are optional with defaults so that a
// short hand-written payload parses; the output always has every field.
//
// Strict (issue 26): a key the schema does not know, anywhere, is refused by name ("Unknown field"),
// so a client's typo is told rather than silently dropped. Content stored before that, with extra
// keys, is read through `readContent` below, which drops them.

export const QUESTION_CATEGORIES = [
  'oneAnswer',
  'fewAnswers',
  'screening',
  'qualification',
  'fromTo',
  'open',
  'starRating',
  'slider',
  'nps',
  'sortable',
  'matrix',
  'regionAuto',
  'cityAuto',
] as const;
export type QuestionCategory = (typeof QUESTION_CATEGORIES)[number];

/** The ten shuffle modes of spec section 3, in its order. */
export const SHUFFLE_MODES = [
  'none',
  'shuffle',
  'shuffleExceptLast',
  'shuffleExceptLastTwo',
  'shuffleExceptFirst',
  'shuffleExceptFirstTwo',
  'shuffleExceptFirstAndLast',
  'reverse',
  'reverseExceptLast',
  'reverseExceptLastTwo',
] as const;
export type ShuffleMode = (typeof SHUFFLE_MODES)[number];

/** Screening modes of an answer: allow the next questions; deny (screen out); allow only if at least one admitting answer is selected. */
export const SCREENING_MODES = ['allow', 'deny', 'allowIfAny'] as const;
export type ScreeningMode = (typeof SCREENING_MODES)[number];

/**
 * The nine redirect targets of spec section 3. A "new…" kind records that the editor created the
 * target when the redirect was set (one command); afterwards it points at that item like its
 * "existing" twin. completeBlock has no target: it goes on with the next block.
 */
export const REDIRECT_KINDS = [
  'newQuestionnaire',
  'questionnaire',
  'newBlock',
  'block',
  'newQuestionInBlock',
  'questionInBlock',
  'newQuestion',
  'question',
  'completeBlock',
] as const;
export type RedirectKind = (typeof REDIRECT_KINDS)[number];

export const RECALL_MODES = ['selected', 'notSelected'] as const;

/** Every object of the content: an unknown key is an issue of its own, 'unknownField'. */
const strict = <const E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, objectMessage);

const id = v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'));
const noControl = v.check((s: string) => !CONTROL_CHARS.test(s), 'controlChars');
const text = (max: number) =>
  v.optional(v.pipe(v.string('type'), v.maxLength(max, 'tooLong'), noControl), '');
const list = <S extends v.GenericSchema>(item: S, max: number) =>
  v.optional(v.pipe(v.array(item, 'type'), v.maxLength(max, 'tooLong')), []);
const picture = v.optional(v.nullable(v.pipe(v.string('type'), v.maxLength(TEXT_MAX.url, 'tooLong'))), null);

function isJsonText(s: string): boolean {
  if (s.trim() === '') return true;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Free-form parameters passed on to integrations: empty, or a valid JSON string (spec section 5). */
export const customParams = v.optional(
  v.pipe(v.string('type'), v.maxLength(TEXT_MAX.customParams, 'tooLong'), v.check(isJsonText, 'json')),
  '',
);

/** Empty, or an http(s) address that the platform calls when a respondent completes the block. */
export const callbackUrl = v.optional(
  v.pipe(
    v.string('type'),
    v.trim(),
    v.maxLength(TEXT_MAX.url, 'tooLong'),
    v.check((s) => s === '' || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(s), 'url'),
  ),
  '',
);

/**
 * One language's texts of an item (issue 32): only the fields that item has, each optional (absent
 * or blank is a missing translation, which falls back to the source; see languages.ts).
 */
const translated = (max: number) =>
  v.optional(v.pipe(v.string('type'), v.maxLength(max, 'tooLong'), noControl));
const languageCode = v.pipe(
  v.string('type'),
  v.check((s: string) => isSupportedLanguage(s), 'language'),
);
const translations = <const E extends v.ObjectEntries>(entries: E) =>
  v.optional(v.record(languageCode, strict(entries), 'type'));

const TextTranslations = translations({ text: translated(TEXT_MAX.answer) });
const QuestionTranslations = translations({
  text: translated(TEXT_MAX.question),
  other: translated(TEXT_MAX.other),
  scaleMin: translated(TEXT_MAX.other),
  scaleMax: translated(TEXT_MAX.other),
});

export const RedirectSchema = strict({
  kind: v.picklist(REDIRECT_KINDS, 'invalid'),
  target: v.optional(v.nullable(id), null),
});
export type Redirect = v.InferOutput<typeof RedirectSchema>;

export const AnswerSchema = strict({
  id,
  text: text(TEXT_MAX.answer),
  picture,
  screening: v.optional(v.nullable(v.picklist(SCREENING_MODES, 'invalid')), null),
  redirect: v.optional(v.nullable(RedirectSchema), null),
  translations: TextTranslations,
});
export type Answer = v.InferOutput<typeof AnswerSchema>;

export const StatementSchema = strict({ id, text: text(TEXT_MAX.answer), translations: TextTranslations });
export type Statement = v.InferOutput<typeof StatementSchema>;

// Bounded so that no number in the content can overflow a column or a computation that reads it;
// the rules check the real limits (stars 3–10, respondents 1–100 000…) with the spec's messages.
const int = v.pipe(
  v.number('type'),
  v.integer('integer'),
  v.minValue(-INT32_MAX, 'invalid'),
  v.maxValue(INT32_MAX, 'tooBig'),
);
const NUM_MAX = 1_000_000_000;
const num = v.pipe(
  v.number('type'),
  v.finite('type'),
  v.minValue(-NUM_MAX, 'invalid'),
  v.maxValue(NUM_MAX, 'tooBig'),
);

export const QuestionSchema = strict({
  id,
  text: text(TEXT_MAX.question),
  category: v.optional(v.picklist(QUESTION_CATEGORIES, 'invalid'), 'oneAnswer'),
  picture,
  /** The custom "other" answer: null when off, else its label ('' shows the default label). */
  other: v.optional(
    v.nullable(v.pipe(v.string('type'), v.maxLength(TEXT_MAX.other, 'tooLong'), noControl)),
    null,
  ),
  answers: list(AnswerSchema, LIMITS.answersPerQuestion * HARD_CAP),
  /** Matrix rows (its answers are the columns). */
  statements: list(StatementSchema, LIMITS.statementsPerQuestion * HARD_CAP),
  shuffle: v.optional(v.picklist(SHUFFLE_MODES, 'invalid'), 'none'),
  /** How many answers a respondent must pick at least and may pick at most. */
  // Bounds are checked by the rules (with the spec's messages), not here.
  answerLimit: v.optional(v.nullable(strict({ min: int, max: int })), null),
  redirect: v.optional(v.nullable(RedirectSchema), null),
  /** Offer only the answers the respondent picked (or did not pick) in an earlier question. */
  recall: v.optional(
    v.nullable(strict({ questionId: id, mode: v.optional(v.picklist(RECALL_MODES, 'invalid'), 'selected') })),
    null,
  ),
  customParams,
  /** Write the answer into the respondent's record, into these fields. */
  writeToDb: v.optional(v.boolean('type'), false),
  dbFields: list(
    v.pipe(v.string('type'), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'invalid')),
    LIMITS.dbFields,
  ),
  /** fromTo (a numeric range, step 1) and slider (min, max, step). */
  scale: v.optional(v.nullable(strict({ min: num, max: num, step: v.optional(num, 1) })), null),
  /** starRating: how many stars. */
  stars: v.optional(v.nullable(int), null),
  // The three below came later: optional in the type (absent reads as null) so that code and
  // stored content written before them stay valid.
  /** nps: the words under both ends of the 0–10 scale ("Not at all likely", "Extremely likely"). */
  scaleLabels: v.optional(v.nullable(strict({ min: text(TEXT_MAX.other), max: text(TEXT_MAX.other) }))),
  /** open: how many characters the respondent's answer must have at least and may have at most. */
  textLength: v.optional(v.nullable(strict({ min: int, max: int }))),
  /** cityAuto: offer only the cities of this region (a region id of GET /cities); null offers all. */
  region: v.optional(v.nullable(v.pipe(v.string('type'), v.maxLength(10, 'tooLong')))),
  /** The texts above in the questionnaire's other languages (issue 32). */
  translations: QuestionTranslations,
});
export type Question = v.InferOutput<typeof QuestionSchema>;

export const BlockSchema = strict({
  id,
  name: text(TEXT_MAX.name),
  customParams,
  callbackUrl,
  questions: list(QuestionSchema, LIMITS.questionsPerBlock * HARD_CAP),
});
export type Block = v.InferOutput<typeof BlockSchema>;

export const QuestionnaireSchema = strict({
  id,
  /** A name the researcher gives it in the editor (absent or '' shows "Questionnaire N"). */
  name: v.optional(v.pipe(v.string('type'), v.maxLength(TEXT_MAX.name, 'tooLong'))),
  blocks: list(BlockSchema, LIMITS.blocksPerQuestionnaire * HARD_CAP),
});
export type Questionnaire = v.InferOutput<typeof QuestionnaireSchema>;

/** One target condition: a list of values (gender, city, education…), or min and max for age. */
export const PortraitParamSchema = strict({
  field: v.pipe(v.string('type'), v.regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, 'invalid')),
  values: list(
    v.pipe(
      v.union([v.string(), v.number()], 'type'),
      v.transform(String),
      v.maxLength(200, 'tooLong'),
      noControl,
    ),
    500,
  ),
  min: v.optional(v.nullable(num), null),
  max: v.optional(v.nullable(num), null),
});
export type PortraitParam = v.InferOutput<typeof PortraitParamSchema>;

export const PortraitSchema = strict({
  id,
  name: text(TEXT_MAX.name),
  respondents: v.optional(int, 0),
  /** The questionnaire its respondents take (target projects). */
  questionnaireId: v.optional(v.nullable(id), null),
  params: list(PortraitParamSchema, LIMITS.portraitParams * HARD_CAP),
});
export type Portrait = v.InferOutput<typeof PortraitSchema>;

/**
 * The questionnaire's languages (issue 32): codes of the supported list, each once, the first being
 * the source language. Absent reads as ['ru'] (languages.ts, contentLanguages).
 */
const Languages = v.optional(
  v.pipe(
    v.array(languageCode, 'type'),
    v.minLength(1, 'required'),
    v.maxLength(SUPPORTED_LANGUAGES.length, 'tooLong'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const seen = new Set<string>();
      dataset.value.forEach((code, i) => {
        if (seen.has(code))
          addIssue({
            message: 'languageDuplicate',
            path: [{ type: 'array', origin: 'value', input: dataset.value, key: i, value: code }],
          });
        seen.add(code);
      });
    }),
  ),
);

export const ContentSchema = v.pipe(
  strict({
    languages: Languages,
    questionnaires: list(QuestionnaireSchema, LIMITS.questionnaires * HARD_CAP),
    portraits: list(PortraitSchema, LIMITS.portraits * HARD_CAP),
  }),
  // A translation may only be in one of the listed languages other than the source.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const at of unlistedTranslations(dataset.value))
      addIssue({ message: 'languageNotListed', path: at as [v.IssuePathItem, ...v.IssuePathItem[]] });
  }),
);
export type ProjectContent = v.InferOutput<typeof ContentSchema>;
/** What a client may send: every field with a default may be left out. */
export type ProjectContentInput = v.InferInput<typeof ContentSchema>;

export const EMPTY_CONTENT: ProjectContent = Object.freeze({
  questionnaires: [],
  portraits: [],
}) as ProjectContent;

/** POST /project. The version being replaced travels in the If-Match header. */
export const SaveProjectBody = strict({
  pid: v.pipe(
    v.number('type'),
    v.integer('integer'),
    v.minValue(1, 'positiveInteger'),
    v.maxValue(INT32_MAX, 'tooBig'),
  ),
  content: ContentSchema,
});

/** Path items down to each translation whose language the content does not list (or is its source). */
function unlistedTranslations(content: {
  languages?: string[];
  questionnaires: {
    blocks: {
      questions: {
        translations?: Record<string, unknown>;
        answers: { translations?: Record<string, unknown> }[];
        statements: { translations?: Record<string, unknown> }[];
      }[];
    }[];
  }[];
}): v.IssuePathItem[][] {
  const languages = content.languages && content.languages.length > 0 ? content.languages : ['ru'];
  const targets = new Set(languages.slice(1));
  const out: v.IssuePathItem[][] = [];
  const step = (input: object, key: string | number, value: unknown): v.IssuePathItem =>
    Array.isArray(input)
      ? { type: 'array', origin: 'value', input, key: key as number, value }
      : {
          type: 'object',
          origin: 'value',
          input: input as Record<string, unknown>,
          key: key as string,
          value,
        };
  // The path is built only for a hit: the common case walks the items and allocates nothing.
  const bad = (item: { translations?: Record<string, unknown> }) => {
    for (const code in item.translations) if (!targets.has(code)) return true;
    return false;
  };
  const report = (path: () => v.IssuePathItem[], item: { translations?: Record<string, unknown> }) => {
    const t = item.translations!;
    for (const code in t)
      if (!targets.has(code)) out.push([...path(), step(item, 'translations', t), step(t, code, t[code])]);
  };
  const root = content as unknown as Record<string, unknown>;
  const qns = content.questionnaires;
  qns.forEach((qn, i) =>
    qn.blocks.forEach((b, j) =>
      b.questions.forEach((q, k) => {
        const qPath = () => [
          step(root, 'questionnaires', qns),
          step(qns, i, qn),
          step(qn, 'blocks', qn.blocks),
          step(qn.blocks, j, b),
          step(b, 'questions', b.questions),
          step(b.questions, k, q),
        ];
        if (q.translations && bad(q)) report(qPath, q);
        q.answers.forEach((a, m) => {
          if (a.translations && bad(a))
            report(() => [...qPath(), step(q, 'answers', q.answers), step(q.answers, m, a)], a);
        });
        q.statements.forEach((x, m) => {
          if (x.translations && bad(x))
            report(() => [...qPath(), step(q, 'statements', q.statements), step(q.statements, m, x)], x);
        });
      }),
    ),
  );
  return out;
}

/** An issue that only says "this key is not in the schema" (a strict object's extra key). */
const isUnknownKey = (issue: v.BaseIssue<unknown>) =>
  issue.type === 'strict_object' && issue.expected === 'never';

/**
 * Stored content (a row written before content was strict, or by an older client): parsed with
 * today's defaults, and with keys the schema no longer knows dropped rather than refused, so every
 * project saved once still opens. Null when something else is wrong with it.
 */
export function readContent(raw: unknown): ProjectContent | null {
  const first = v.safeParse(ContentSchema, raw);
  if (first.success) return first.output;
  if (!first.issues.every(isUnknownKey)) return null;
  // Each issue's last path item is the extra key and the object holding it (the caller's own copy).
  for (const issue of first.issues) {
    const at = issue.path?.[issue.path.length - 1];
    if (at && at.input && typeof at.input === 'object')
      delete (at.input as Record<string, unknown>)[String(at.key)];
  }
  const second = v.safeParse(ContentSchema, raw);
  return second.success ? second.output : null;
}

export const PidQuery = v.object({ pid: queryId });

export function countQuestions(content: ProjectContent): number {
  let n = 0;
  for (const qn of content.questionnaires) for (const b of qn.blocks) n += b.questions.length;
  return n;
}

/** The project as GET /project describes it beside its content (and as a draft keeps it for offline opening). */
export interface EditorProject {
  pid: number;
  name: string;
  type: number;
  template: string;
  status: number;
  /** The caller may change the content now (a role that writes, and an editable status). */
  editable: boolean;
  permissions: { blockSettings: boolean; customParams: boolean };
}
