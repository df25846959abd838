import { ProjectType } from '../projects';
import { EDUCATION_LEVELS, GENDERS } from '../lookups';
import { CATEGORY_RULES, NPS_SCALE, OPEN_ANSWER_MAX } from './categories';
import { LIMITS, PICTURE_PATH_RE, pendingPictureId } from './limits';
import type { ProjectContent, Question } from './model';
import type { Problem, RuleKey, Severity } from './problems';
import { indexContent, redirectProblems } from './redirects';
import { translationProblems } from './translation-rules';

// Every problem of a project's content (spec section 5, codes 40501–40518 of section 8, the limits
// of DESIGN.md section 5), each with the path of the item at fault. One pass over the content plus
// the redirect graph; it never throws, whatever it is given, because the editor runs it on every
// change and the server on every save. A 1 000-question project is checked in about a millisecond
// (tests/bench/content.bench.ts).

/** What the rules need to know about the project itself. */
export interface RulesContext {
  /** 1 default, 2 target (spec section 3). Portraits belong to target projects only. */
  projectType: number;
}

/** Target fields a portrait may filter on and the values of the closed lists (ids of GET /target-fields). */
const TARGET_VALUES: Record<string, readonly string[] | null> = {
  gender: GENDERS,
  age: null,
  city: null,
  education: EDUCATION_LEVELS,
};

const CODES: Partial<Record<RuleKey, Problem['code']>> = {
  empty: 40501,
  tooManyQuestionnaires: 40502,
  noPortraits: 40503,
  tooManyPortraits: 40504,
  questionnaireWithoutPortrait: 40505,
  portraitsNotAllowed: 40506,
  noBlocks: 40507,
  tooManyBlocks: 40508,
  emptyBlock: 40509,
  tooManyQuestions: 40510,
  portraitNoParams: 40511,
  tooManyRespondents: 40512,
  emptyQuestion: 40513,
  matrixStatements: 40513,
  questionText: 40514,
  tooManyAnswers: 40515,
  tooManyStatements: 40515,
  questionPicture: 40516,
  emptyAnswer: 40517,
  emptyStatement: 40517,
  answerPicture: 40518,
};

const INCOMPLETE: ReadonlySet<RuleKey> = new Set<RuleKey>([
  'empty',
  'noPortraits',
  'questionnaireWithoutPortrait',
  'noBlocks',
  'emptyBlock',
  'portraitNoParams',
  'emptyQuestion',
  'matrixStatements',
  'questionText',
  'emptyAnswer',
  'emptyStatement',
  'rankingTwoAnswers',
]);

function problem(rule: RuleKey, path: string, params?: Problem['params']): Problem {
  const severity: Severity = INCOMPLETE.has(rule) ? 'incomplete' : 'error';
  const p: Problem = { rule, code: CODES[rule] ?? null, severity, path };
  if (params) p.params = params;
  return p;
}

const blank = (s: string) => s.trim() === '';
const isPicture = (s: string) => PICTURE_PATH_RE.test(s);

export function checkContent(content: ProjectContent, ctx: RulesContext): Problem[] {
  try {
    return check(content, ctx);
  } catch {
    // Content that does not even have the schema's shape: say so at the top rather than throw.
    return [problem('empty', '')];
  }
}

function check(content: ProjectContent, ctx: RulesContext): Problem[] {
  const out: Problem[] = [];
  const index = indexContent(content);
  const seen = new Set<string>();
  const unique = (id: string, path: string) => {
    if (seen.has(id)) out.push(problem('duplicateId', path, { id }));
    else seen.add(id);
  };

  if (content.questionnaires.length > LIMITS.questionnaires) {
    out.push(problem('tooManyQuestionnaires', 'questionnaires', { max: LIMITS.questionnaires }));
  }
  if (index.nodes.length === 0) out.push(problem('empty', ''));

  content.questionnaires.forEach((qn, i) => {
    const qnPath = `questionnaires.${i}`;
    unique(qn.id, qnPath);
    if (qn.blocks.length === 0) out.push(problem('noBlocks', qnPath));
    if (qn.blocks.length > LIMITS.blocksPerQuestionnaire)
      out.push(problem('tooManyBlocks', qnPath, { max: LIMITS.blocksPerQuestionnaire }));
    let order = 0;
    qn.blocks.forEach((block, j) => {
      const bPath = `${qnPath}.blocks.${j}`;
      unique(block.id, bPath);
      if (block.questions.length === 0) out.push(problem('emptyBlock', bPath));
      if (block.questions.length > LIMITS.questionsPerBlock)
        out.push(problem('tooManyQuestions', bPath, { max: LIMITS.questionsPerBlock }));
      block.questions.forEach((q, k) => {
        checkQuestion(q, `${bPath}.questions.${k}`, out, unique);
        if (q.recall) {
          const node = index.questions.get(q.recall.questionId);
          const target = node === undefined ? null : index.nodes[node];
          const source = target
            ? content.questionnaires[target.qn].blocks[target.b].questions.find(
                (x) => x.id === q.recall!.questionId,
              )
            : null;
          if (
            !target ||
            target.qn !== i ||
            target.order >= order ||
            !source ||
            !CATEGORY_RULES[source.category].recallable
          ) {
            out.push(problem('recallInvalid', `${bPath}.questions.${k}.recall`));
          }
        }
        order++;
      });
    });
  });

  checkPortraits(content, ctx, out, unique);
  out.push(...redirectProblems(content, index));
  out.push(...translationProblems(content));
  return out;
}

function checkQuestion(
  q: Question,
  path: string,
  out: Problem[],
  unique: (id: string, path: string) => void,
) {
  unique(q.id, path);
  const r = CATEGORY_RULES[q.category];
  if (blank(q.text)) out.push(problem('questionText', path));
  // A picture still waiting in this browser's queue: named as such, so a save refused for it says why.
  if (pendingPictureId(q.picture)) out.push(problem('picturePending', path));
  else if (q.picture !== null && !isPicture(q.picture)) out.push(problem('questionPicture', path));

  const notApplicable = (field: string) => out.push(problem('fieldNotApplicable', path, { field }));
  if (!r.answers && q.answers.length > 0) notApplicable('answers');
  if (!r.statements && q.statements.length > 0) notApplicable('statements');
  if (!r.other && q.other !== null) notApplicable('other');
  if (!r.answerLimit && q.answerLimit !== null) notApplicable('answerLimit');
  if (!r.shuffle && q.shuffle !== 'none') notApplicable('shuffle');
  if (!r.scale && q.scale !== null) notApplicable('scale');
  if (!r.stars && q.stars !== null) notApplicable('stars');
  if (r.scale !== 'nps' && (q.scaleLabels ?? null) !== null) notApplicable('scaleLabels');
  if (q.category !== 'open' && (q.textLength ?? null) !== null) notApplicable('textLength');
  if (q.category !== 'cityAuto' && (q.region ?? null) !== null) notApplicable('region');
  if (q.textLength) {
    const { min, max } = q.textLength;
    if (min < 0 || max < 1 || min > max || max > OPEN_ANSWER_MAX)
      out.push(problem('textLengthInvalid', `${path}.textLength`, { max: OPEN_ANSWER_MAX }));
  }

  if (r.answers) {
    if (q.answers.length === 0) out.push(problem('emptyQuestion', path));
    else if (q.answers.length < r.minAnswers)
      out.push(problem('rankingTwoAnswers', path, { min: r.minAnswers }));
    if (q.answers.length > LIMITS.answersPerQuestion)
      out.push(problem('tooManyAnswers', path, { max: LIMITS.answersPerQuestion }));
    q.answers.forEach((a, m) => {
      const aPath = `${path}.answers.${m}`;
      unique(a.id, aPath);
      if (blank(a.text) && a.picture === null) out.push(problem('emptyAnswer', aPath));
      if (r.answerPictures && pendingPictureId(a.picture)) out.push(problem('picturePending', aPath));
      else if (a.picture !== null && (!r.answerPictures || !isPicture(a.picture)))
        out.push(problem('answerPicture', aPath));
      if (!r.screening && a.screening !== null)
        out.push(problem('fieldNotApplicable', aPath, { field: 'screening' }));
    });
  }
  if (r.statements) {
    if (q.statements.length === 0) out.push(problem('matrixStatements', path));
    if (q.statements.length > LIMITS.statementsPerQuestion)
      out.push(problem('tooManyStatements', path, { max: LIMITS.statementsPerQuestion }));
    q.statements.forEach((s, m) => {
      unique(s.id, `${path}.statements.${m}`);
      if (blank(s.text)) out.push(problem('emptyStatement', `${path}.statements.${m}`));
    });
  }

  if (r.answerLimit && q.answerLimit) {
    const { min, max } = q.answerLimit;
    // The "other" answer can be picked too, so it counts towards what is available.
    const available = q.answers.length + (q.other !== null ? 1 : 0);
    if (min > max || max < 1 || min < 0) out.push(problem('answerLimitRange', `${path}.answerLimit`));
    else if (min > available)
      out.push(problem('answerLimitMissing', `${path}.answerLimit`, { count: available }));
    else if (max > available)
      out.push(problem('answerLimitExceeded', `${path}.answerLimit`, { count: available }));
  }

  if (r.scale) {
    const s = q.scale;
    const ok =
      s !== null &&
      (r.scale === 'nps'
        ? s.min === NPS_SCALE.min && s.max === NPS_SCALE.max && s.step === NPS_SCALE.step
        : s.min < s.max &&
          s.step > 0 &&
          s.step <= s.max - s.min &&
          (r.scale === 'slider' || (Number.isInteger(s.min) && Number.isInteger(s.max) && s.step === 1)));
    if (!ok) out.push(problem('scaleInvalid', `${path}.scale`));
  }
  if (
    r.stars &&
    (q.stars === null || !Number.isInteger(q.stars) || q.stars < LIMITS.starsMin || q.stars > LIMITS.starsMax)
  ) {
    out.push(problem('starsInvalid', `${path}.stars`, { min: LIMITS.starsMin, max: LIMITS.starsMax }));
  }
}

function checkPortraits(
  content: ProjectContent,
  ctx: RulesContext,
  out: Problem[],
  unique: (id: string, path: string) => void,
) {
  const target = ctx.projectType === ProjectType.Target;
  if (!target) {
    if (content.portraits.length > 0) out.push(problem('portraitsNotAllowed', 'portraits'));
    return;
  }
  if (content.portraits.length === 0) out.push(problem('noPortraits', 'portraits'));
  if (content.portraits.length > LIMITS.portraits)
    out.push(problem('tooManyPortraits', 'portraits', { max: LIMITS.portraits }));

  const questionnaireIds = new Set(content.questionnaires.map((q) => q.id));
  const addressed = new Set<string>();
  content.portraits.forEach((p, i) => {
    const path = `portraits.${i}`;
    unique(p.id, path);
    if (p.respondents < LIMITS.respondentsMin)
      out.push(problem('portraitRespondents', path, { min: LIMITS.respondentsMin }));
    if (p.respondents > LIMITS.respondentsMax)
      out.push(problem('tooManyRespondents', path, { max: LIMITS.respondentsMax }));
    if (p.questionnaireId !== null && !questionnaireIds.has(p.questionnaireId))
      out.push(problem('portraitQuestionnaire', path));
    // A portrait without a questionnaire takes the first one.
    addressed.add(p.questionnaireId ?? content.questionnaires[0]?.id ?? '');
    if (p.params.length === 0) out.push(problem('portraitNoParams', path));
    if (p.params.length > LIMITS.portraitParams)
      out.push(problem('tooManyPortraitParams', path, { max: LIMITS.portraitParams }));
    const fields = new Set<string>();
    p.params.forEach((param, j) => {
      const pPath = `${path}.params.${j}`;
      if (fields.has(param.field)) out.push(problem('portraitDuplicateField', pPath));
      fields.add(param.field);
      if (!(param.field in TARGET_VALUES)) return void out.push(problem('portraitUnknownField', pPath));
      if (param.field === 'age') {
        const { min, max } = param;
        if (min === null || max === null || min < LIMITS.ageMin || max > LIMITS.ageMax || min > max) {
          out.push(problem('portraitAge', pPath, { min: LIMITS.ageMin, max: LIMITS.ageMax }));
        }
        return;
      }
      if (param.values.length === 0) return void out.push(problem('portraitParamEmpty', pPath));
      const known = TARGET_VALUES[param.field];
      if (known && param.values.some((v) => !known.includes(v)))
        out.push(problem('portraitUnknownValue', pPath));
    });
  });

  // A questionnaire that no portrait addresses and no redirect leads to would never be answered.
  const redirected = new Set<string>();
  for (const qn of content.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions) {
        if (q.redirect?.target) redirected.add(q.redirect.target);
        for (const a of q.answers) if (a.redirect?.target) redirected.add(a.redirect.target);
      }
  content.questionnaires.forEach((qn, i) => {
    if (content.portraits.length > 0 && !addressed.has(qn.id) && !redirected.has(qn.id)) {
      out.push(problem('questionnaireWithoutPortrait', `questionnaires.${i}`));
    }
  });
}
