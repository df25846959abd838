import { CATEGORY_RULES } from './categories';
import { needsTranslation, targetLanguages, translation, type TextField } from './languages';
import type { ProjectContent, Question } from './model';
import type { Problem, RuleKey } from './problems';

// The problems of a questionnaire in several languages (issue 32): every text a respondent sees
// that has a source text needs one in each other language. A missing one falls back to the source
// for respondents, so it never stops a save (severity `incomplete`), but sending for moderation is
// refused while any is missing, with the same message the problem list shows: "Question 12 has
// no English text". The language goes as its code; the reader's text names it (problemText).

const QUESTION_RULES: Record<TextField, RuleKey> = {
  text: 'translationMissing',
  other: 'translationMissingOther',
  scaleMin: 'translationMissingScale',
  scaleMax: 'translationMissingScale',
};

export function translationProblems(content: ProjectContent): Problem[] {
  const targets = targetLanguages(content);
  if (targets.length === 0) return [];
  const out: Problem[] = [];
  const missing = (rule: RuleKey, path: string, params: Problem['params']) =>
    out.push({ rule, code: null, severity: 'incomplete', path, params });
  content.questionnaires.forEach((qn, i) => {
    let number = 0;
    qn.blocks.forEach((b, j) =>
      b.questions.forEach((q, k) => {
        number++;
        const path = `questionnaires.${i}.blocks.${j}.questions.${k}`;
        for (const language of targets) {
          // Both ends of a scale are one problem: the researcher fixes them together.
          let scaleSaid = false;
          for (const field of questionFields(q)) {
            if (!needsTranslation(q, field) || translation(q, field, language, content) !== undefined)
              continue;
            if (QUESTION_RULES[field] === 'translationMissingScale') {
              if (scaleSaid) continue;
              scaleSaid = true;
            }
            missing(QUESTION_RULES[field], path, { number, language });
          }
          const r = CATEGORY_RULES[q.category];
          if (r.answers)
            q.answers.forEach((a, m) => {
              if (needsTranslation(a, 'text') && translation(a, 'text', language, content) === undefined)
                missing('translationMissingAnswer', `${path}.answers.${m}`, { number, n: m + 1, language });
            });
          if (r.statements)
            q.statements.forEach((s, m) => {
              if (needsTranslation(s, 'text') && translation(s, 'text', language, content) === undefined)
                missing('translationMissingStatement', `${path}.statements.${m}`, {
                  number,
                  n: m + 1,
                  language,
                });
            });
        }
      }),
    );
  });
  return out;
}

/** The question's own texts a respondent sees, for its category. */
function questionFields(q: Question): TextField[] {
  const r = CATEGORY_RULES[q.category];
  const fields: TextField[] = ['text'];
  if (r.other && q.other !== null) fields.push('other');
  if (r.scale === 'nps' && q.scaleLabels) fields.push('scaleMin', 'scaleMax');
  return fields;
}

/** Whether a problem is a missing translation (the texts name its language). */
export const isTranslationProblem = (p: Pick<Problem, 'rule'>) => p.rule.startsWith('translationMissing');
