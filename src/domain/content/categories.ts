import type { Question, QuestionCategory } from './model';

// Which fields apply to which question category (spec section 3). The rules refuse a field set on
// a category that does not use it, the editor clears such fields when the category changes, and the
// later editor screens show only the fields that apply.

export interface CategoryRules {
  /** The question lists answers the respondent picks from (or ranks, or uses as matrix columns). */
  answers: boolean;
  /** Minimum answers for the question to make sense (ranking needs two). */
  minAnswers: number;
  /** Matrix rows. */
  statements: boolean;
  /** A custom "other" answer may be offered. */
  other: boolean;
  /** The answer count limit (min, max) applies. */
  answerLimit: boolean;
  /** Answers (or matrix rows) may be shuffled. */
  shuffle: boolean;
  /** Answers carry a screening mode. */
  screening: boolean;
  /** Answers may carry a picture. */
  answerPictures: boolean;
  /** Answers may redirect (the picked answer decides where the survey goes). */
  answerRedirects: boolean;
  /** At most one answer is picked (so when every answer redirects, nothing falls through). */
  single: boolean;
  /** scale: 'range' for fromTo (integers, step 1), 'slider' (min, max, step), 'nps' fixed 0–10. */
  scale: 'range' | 'slider' | 'nps' | null;
  stars: boolean;
  /** Answers come from the cities lookup (GET /cities) rather than from the question. */
  lookup: 'region' | 'city' | null;
  /** The question can be recalled by a later one (its answers are picked). */
  recallable: boolean;
}

const none: CategoryRules = {
  answers: false,
  minAnswers: 0,
  statements: false,
  other: false,
  answerLimit: false,
  shuffle: false,
  screening: false,
  answerPictures: false,
  answerRedirects: false,
  single: false,
  scale: null,
  stars: false,
  lookup: null,
  recallable: false,
};
const choice: CategoryRules = {
  ...none,
  answers: true,
  minAnswers: 1,
  other: true,
  shuffle: true,
  answerPictures: true,
  answerRedirects: true,
  recallable: true,
};

export const CATEGORY_RULES: Record<QuestionCategory, CategoryRules> = {
  oneAnswer: { ...choice, single: true },
  fewAnswers: { ...choice, answerLimit: true },
  screening: { ...choice, other: false, screening: true, single: true },
  qualification: { ...choice, single: true },
  fromTo: { ...none, scale: 'range' },
  open: none,
  starRating: { ...none, stars: true },
  slider: { ...none, scale: 'slider' },
  nps: { ...none, scale: 'nps' },
  sortable: { ...none, answers: true, minAnswers: 2, shuffle: true, answerPictures: true },
  matrix: { ...none, answers: true, minAnswers: 1, statements: true, shuffle: true },
  regionAuto: { ...none, lookup: 'region' },
  cityAuto: { ...none, lookup: 'city' },
};

export const NPS_SCALE = { min: 0, max: 10, step: 1 } as const;
export const DEFAULT_SCALE = {
  range: { min: 1, max: 10, step: 1 },
  slider: { min: 0, max: 100, step: 1 },
} as const;
export const DEFAULT_STARS = 5;
/** The most characters an open answer may be limited to. */
export const OPEN_ANSWER_MAX = 10_000;

/**
 * The question with its category changed and every field that the new category does not use
 * cleared (and defaults filled for the ones it now needs). Answers survive a change between two
 * categories that both list answers, so switching "one answer" to "few answers" keeps the work.
 */
export function withCategory(q: Question, category: QuestionCategory): Question {
  const r = CATEGORY_RULES[category];
  const scale =
    r.scale === 'nps'
      ? { ...NPS_SCALE }
      : r.scale
        ? q.scale && CATEGORY_RULES[q.category].scale === r.scale
          ? q.scale
          : { ...DEFAULT_SCALE[r.scale] }
        : null;
  return {
    ...q,
    category,
    answers: r.answers
      ? q.answers.map((a) => ({
          ...a,
          picture: r.answerPictures ? a.picture : null,
          screening: r.screening ? (a.screening ?? 'allow') : null,
          redirect: r.answerRedirects ? a.redirect : null,
        }))
      : [],
    statements: r.statements ? q.statements : [],
    other: r.other ? q.other : null,
    answerLimit: r.answerLimit ? q.answerLimit : null,
    shuffle: r.shuffle ? q.shuffle : 'none',
    scale,
    stars: r.stars ? (q.stars ?? DEFAULT_STARS) : null,
    scaleLabels: r.scale === 'nps' ? (q.scaleLabels ?? null) : null,
    textLength: category === 'open' ? (q.textLength ?? null) : null,
    region: category === 'cityAuto' ? (q.region ?? null) : null,
  };
}
