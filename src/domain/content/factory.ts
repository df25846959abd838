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
  return { id: newId(), name: '', blocks: [newBlock()], ...partial };
}

export function newPortrait(partial: Partial<Portrait> = {}): Portrait {
  return { id: newId(), name: '', respondents: 100, questionnaireId: null, params: [], ...partial };
}

/**
 * A deep copy of a questionnaire, block or question with a fresh id on every item in it; redirects
 * and recall filters between items of the copy point at their copies, those leaving it stay.
 */
export function copyWithNewIds<T extends Questionnaire | Block | Question>(item: T): T {
  const ids = new Map<string, string>();
  // JSON, not structuredClone: the item may be an immer draft (a Proxy), and content is plain JSON.
  const copy = JSON.parse(JSON.stringify(item)) as Record<string, unknown>;
  const renew = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(renew);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o.id === 'string') {
        const fresh = newId();
        ids.set(o.id, fresh);
        o.id = fresh;
      }
      for (const [k, v] of Object.entries(o)) if (k !== 'redirect' && k !== 'recall') renew(v);
    }
  };
  renew(copy);
  const relink = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(relink);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      const r = o.redirect as { target: string | null } | null | undefined;
      if (r?.target && ids.has(r.target)) o.redirect = { ...r, target: ids.get(r.target) };
      const rc = o.recall as { questionId: string } | null | undefined;
      if (rc && ids.has(rc.questionId)) o.recall = { ...rc, questionId: ids.get(rc.questionId) };
      for (const [k, v] of Object.entries(o)) if (k !== 'redirect' && k !== 'recall') relink(v);
    }
  };
  relink(copy);
  return copy as unknown as T;
}
