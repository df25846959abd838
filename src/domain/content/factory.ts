import { withCategory } from './categories';
import { newId } from './ids';
import type { Answer, Block, Portrait, Question, QuestionCategory, Questionnaire, Statement } from './model';

// New items with every field at its default, for the editor's commands, the import and the tests.

export function newAnswer(partial: Partial<Answer> = {}): Answer {
  return { id: newId(), text: '', picture: null, screening: null, redirect: null, ...partial };
}

export function newStatement(partial: Partial<Statement> = {}): Statement {
  return { id: newId(), text: '', ...partial };
}

export function newQuestion(partial: Partial<Question> = {}): Question {
  const base: Question = {
    id: newId(),
    text: '',
    category: 'oneAnswer',
    picture: null,
    other: null,
    answers: [],
    statements: [],
    shuffle: 'none',
    answerLimit: null,
    redirect: null,
    recall: null,
    customParams: '',
    writeToDb: false,
    dbFields: [],
    scale: null,
    stars: null,
    scaleLabels: null,
    textLength: null,
    region: null,
  };
  const category: QuestionCategory = partial.category ?? base.category;
  // Fill what the category needs (scale, stars, screening modes) without dropping given fields.
  return withCategory({ ...base, ...partial, category }, category);
}

export function newBlock(partial: Partial<Block> = {}): Block {
  return { id: newId(), name: '', customParams: '', callbackUrl: '', questions: [], ...partial };
}

export function newQuestionnaire(partial: Partial<Questionnaire> = {}): Questionnaire {
  return { id: newId(), blocks: [newBlock()], ...partial };
}

export function newPortrait(partial: Partial<Portrait> = {}): Portrait {
  return { id: newId(), name: '', respondents: 100, questionnaireId: null, params: [], ...partial };
}
