import type { ContentErrorCode } from '../errors';

// What the rules report: every problem of a project's content with the path of the item at fault.
// `error` problems stop a save (limits, contradictions, broken redirects, invalid portraits);
// `incomplete` ones (empty questions, blocks, texts) are allowed in a saved draft and stop only the
// sending to moderation, so a researcher can save half-done work and come back to it.

export type Severity = 'error' | 'incomplete';

export type RuleKey =
  | 'empty'
  | 'tooManyQuestionnaires'
  | 'noPortraits'
  | 'tooManyPortraits'
  | 'questionnaireWithoutPortrait'
  | 'portraitsNotAllowed'
  | 'noBlocks'
  | 'tooManyBlocks'
  | 'emptyBlock'
  | 'tooManyQuestions'
  | 'portraitNoParams'
  | 'tooManyRespondents'
  | 'portraitRespondents'
  | 'portraitAge'
  | 'portraitParamEmpty'
  | 'portraitUnknownField'
  | 'portraitUnknownValue'
  | 'portraitDuplicateField'
  | 'portraitQuestionnaire'
  | 'tooManyPortraitParams'
  | 'emptyQuestion'
  | 'matrixStatements'
  | 'questionText'
  | 'tooManyAnswers'
  | 'tooManyStatements'
  | 'questionPicture'
  | 'emptyAnswer'
  | 'emptyStatement'
  | 'answerPicture'
  | 'picturePending'
  | 'rankingTwoAnswers'
  | 'answerLimitRange'
  | 'answerLimitExceeded'
  | 'answerLimitMissing'
  | 'fieldNotApplicable'
  | 'scaleInvalid'
  | 'starsInvalid'
  | 'textLengthInvalid'
  | 'recallInvalid'
  | 'duplicateId'
  | 'redirectTarget'
  | 'redirectCycle'
  // A text with no translation into one of the questionnaire's languages (issue 32; translation-rules.ts).
  | 'translationMissing'
  | 'translationMissingOther'
  | 'translationMissingScale'
  | 'translationMissingAnswer'
  | 'translationMissingStatement';

export interface Problem {
  rule: RuleKey;
  /** The spec's numeric code (section 8) where one names this problem. */
  code: ContentErrorCode | null;
  severity: Severity;
  /** Dotted path of the item at fault ('questionnaires.0.blocks.2.questions.5'); '' is the whole project. */
  path: string;
  params?: Record<string, string | number>;
  /** For a redirect cycle: the paths of the redirects that form it. */
  redirects?: string[];
}

/** The group a problem belongs to, for the spec's summary messages (section 5). */
export function summaryOf(p: Pick<Problem, 'rule'>): 'redirects' | 'portraits' | null {
  if (p.rule === 'redirectTarget' || p.rule === 'redirectCycle') return 'redirects';
  if (p.rule.startsWith('portrait') || p.rule === 'tooManyRespondents' || p.rule === 'tooManyPortraitParams')
    return 'portraits';
  return null;
}

export function blocksSave(problems: readonly Problem[]): Problem[] {
  return problems.filter((p) => p.severity === 'error');
}
