import { enablePatches, original, produceWithPatches, type Draft, type Patch } from 'immer';
import { same } from './flat';
import { withCategory } from './categories';
import { shortLabel, type ChangeCode } from './changelog';
import {
  copyWithNewIds,
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from './factory';
import { performLanguageCommand, type LanguageCommand } from './languageEdits';
import type {
  Answer,
  Block,
  Portrait,
  ProjectContent,
  Question,
  QuestionCategory,
  Questionnaire,
  Redirect,
  Statement,
} from './model';

// Every edit of the content is a command: plain data that names what to change. Performing one
// yields the new content and an immer patch pair (to undo and redo it cheaply, however large the
// questionnaire) and the change-log code with a short label. A command that names an item that is
// not there, or changes nothing, yields null: no history entry, no log row.

enablePatches();

/** Questions produced by the import (src/domain/content/import.ts), grouped by the blocks they open. */
export interface ImportedBlock {
  /** The name of a block the input opened ([[Block:…]] or "# name"); null for questions before any. */
  name: string | null;
  questions: Question[];
}

type QuestionPatch = Partial<Omit<Question, 'id' | 'category' | 'answers' | 'statements'>>;

export type Command =
  /** A new questionnaire (at the end unless index); `empty` leaves out its first block. */
  | { type: 'questionnaire.add'; index?: number; empty?: boolean }
  | { type: 'questionnaire.delete'; questionnaireId: string }
  | { type: 'questionnaire.update'; questionnaireId: string; patch: { name?: string } }
  | { type: 'questionnaire.move'; questionnaireId: string; index: number }
  | { type: 'questionnaire.duplicate'; questionnaireId: string }
  | { type: 'block.move'; blockId: string; index: number }
  | { type: 'block.duplicate'; blockId: string }
  | { type: 'question.duplicate'; questionId: string }
  | { type: 'block.add'; questionnaireId: string; index?: number }
  | { type: 'block.delete'; blockId: string }
  | {
      type: 'block.update';
      blockId: string;
      patch: Partial<Pick<Block, 'name' | 'customParams' | 'callbackUrl'>>;
    }
  | { type: 'question.add'; blockId: string; index?: number; question?: Partial<Question> }
  | { type: 'question.delete'; questionId: string }
  | { type: 'question.update'; questionId: string; patch: QuestionPatch }
  | { type: 'question.setCategory'; questionId: string; category: QuestionCategory }
  | { type: 'question.move'; questionId: string; toBlockId: string; index: number }
  | { type: 'answer.add'; questionId: string; index?: number; answer?: Partial<Answer> }
  /** Adds several answers at once (a pasted list, one line each): one edit, one undo. */
  /** `fill`: an empty answer that takes the first text instead of a new one (a list pasted into it). */
  | { type: 'answer.addMany'; questionId: string; index?: number; texts: string[]; fill?: string }
  | { type: 'answer.update'; questionId: string; answerId: string; patch: Partial<Omit<Answer, 'id'>> }
  | { type: 'answer.delete'; questionId: string; answerId: string }
  /** Swaps picture references everywhere (queued `local-picture:` ones for their uploaded URLs): one step. */
  | { type: 'pictures.replace'; urls: Record<string, string> }
  | { type: 'answer.move'; questionId: string; answerId: string; index: number }
  | { type: 'statement.add'; questionId: string; index?: number; statement?: Partial<Statement> }
  | { type: 'statement.update'; questionId: string; statementId: string; text: string }
  | { type: 'statement.delete'; questionId: string; statementId: string }
  /** Sets (or clears, with null) the redirect of a question or of one of its answers. A "new…" kind without a target creates the target. */
  | { type: 'redirect.set'; questionId: string; answerId?: string; redirect: Redirect | null }
  | { type: 'portrait.add'; portrait?: Partial<Portrait> }
  | { type: 'portrait.update'; portraitId: string; patch: Partial<Omit<Portrait, 'id'>> }
  | { type: 'portrait.delete'; portraitId: string }
  /** Adds imported questions to a block of a questionnaire (null: a new questionnaire holds them). */
  | { type: 'import'; questionnaireId: string | null; blockId: string | null; blocks: ImportedBlock[] }
  /**
   * Replaces the whole content (a version restored from the history, or the result of merging with
   * the server's version): one undoable step, logged as 010 with `label` (e.g. the version).
   */
  | { type: 'content.replace'; content: ProjectContent; label: string }
  /** The questionnaire's languages and its texts in each (languageEdits.ts). */
  | LanguageCommand;

export type CommandType = Command['type'];

export interface Performed {
  content: ProjectContent;
  patches: Patch[];
  inverse: Patch[];
  code: ChangeCode;
  label: string;
}

type D = Draft<ProjectContent>;

interface Found<T> {
  item: T;
  list: T[];
  index: number;
}

function findQuestionnaire(d: D, id: string) {
  const index = d.questionnaires.findIndex((q) => q.id === id);
  return index < 0 ? null : { item: d.questionnaires[index], list: d.questionnaires, index };
}

function findBlock(d: D, id: string): (Found<Draft<Block>> & { qn: number }) | null {
  for (let i = 0; i < d.questionnaires.length; i++) {
    const list = d.questionnaires[i].blocks;
    const index = list.findIndex((b) => b.id === id);
    if (index >= 0) return { item: list[index], list, index, qn: i };
  }
  return null;
}

function findQuestion(
  d: D,
  id: string,
): (Found<Draft<Question>> & { block: Draft<Block>; qn: number }) | null {
  for (let i = 0; i < d.questionnaires.length; i++) {
    for (const block of d.questionnaires[i].blocks) {
      const index = block.questions.findIndex((q) => q.id === id);
      if (index >= 0) return { item: block.questions[index], list: block.questions, index, block, qn: i };
    }
  }
  return null;
}

const clampIndex = (index: number | undefined, length: number) =>
  index === undefined || !Number.isInteger(index) ? length : Math.max(0, Math.min(length, index));

/** Clears redirects, recall filters and portrait links that point at items just deleted. */
function dropReferences(d: D, ids: Set<string>) {
  for (const qn of d.questionnaires)
    for (const b of qn.blocks)
      for (const q of b.questions) {
        if (q.redirect?.target && ids.has(q.redirect.target)) q.redirect = null;
        if (q.recall && ids.has(q.recall.questionId)) q.recall = null;
        for (const a of q.answers) if (a.redirect?.target && ids.has(a.redirect.target)) a.redirect = null;
      }
  for (const p of d.portraits) if (p.questionnaireId && ids.has(p.questionnaireId)) p.questionnaireId = null;
}

function idsInBlock(b: Block | Draft<Block>, into: Set<string>) {
  into.add(b.id);
  for (const q of b.questions) into.add(q.id);
  return into;
}

/** Mutates the draft; returns the change-log code and label, or null when the command does not apply. */
function perform(d: D, c: Command): { code: ChangeCode; label: string } | null {
  switch (c.type) {
    case 'questionnaire.add': {
      const qn = newQuestionnaire(c.empty ? { blocks: [] } : {});
      d.questionnaires.splice(clampIndex(c.index, d.questionnaires.length), 0, qn);
      return { code: '004', label: '' };
    }
    // The spec's log has no code of its own for a questionnaire's name or place, nor for a block's
    // place: a rename counts as a settings change (009), a reorder as a move (012); see
    // docs/decisions/editor.md.
    case 'questionnaire.update': {
      const f = findQuestionnaire(d, c.questionnaireId);
      if (!f || c.patch.name === undefined) return null;
      f.item.name = c.patch.name;
      return { code: '009', label: shortLabel(c.patch.name) };
    }
    case 'questionnaire.move': {
      const f = findQuestionnaire(d, c.questionnaireId);
      if (!f) return null;
      const [qn] = f.list.splice(f.index, 1);
      f.list.splice(clampIndex(c.index, f.list.length), 0, qn);
      return { code: '012', label: shortLabel(qn.name ?? '') };
    }
    case 'questionnaire.duplicate': {
      const f = findQuestionnaire(d, c.questionnaireId);
      if (!f) return null;
      f.list.splice(f.index + 1, 0, copyWithNewIds(f.item as Questionnaire));
      return { code: '004', label: shortLabel(f.item.name ?? '') };
    }
    case 'block.move': {
      const f = findBlock(d, c.blockId);
      if (!f) return null;
      const [b] = f.list.splice(f.index, 1);
      f.list.splice(clampIndex(c.index, f.list.length), 0, b);
      return { code: '012', label: shortLabel(b.name) };
    }
    case 'block.duplicate': {
      const f = findBlock(d, c.blockId);
      if (!f) return null;
      f.list.splice(f.index + 1, 0, copyWithNewIds(f.item as Block));
      return { code: '004', label: shortLabel(f.item.name) };
    }
    case 'question.duplicate': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      f.list.splice(f.index + 1, 0, copyWithNewIds(f.item as Question));
      return { code: '005', label: shortLabel(f.item.text) };
    }
    case 'questionnaire.delete': {
      const f = findQuestionnaire(d, c.questionnaireId);
      if (!f) return null;
      const ids = new Set<string>([f.item.id]);
      for (const b of f.item.blocks) idsInBlock(b, ids);
      f.list.splice(f.index, 1);
      dropReferences(d, ids);
      return { code: '007', label: '' };
    }
    case 'block.add': {
      const f = findQuestionnaire(d, c.questionnaireId);
      if (!f) return null;
      f.item.blocks.splice(clampIndex(c.index, f.item.blocks.length), 0, newBlock());
      return { code: '004', label: '' };
    }
    case 'block.delete': {
      const f = findBlock(d, c.blockId);
      if (!f) return null;
      const ids = idsInBlock(f.item, new Set());
      f.list.splice(f.index, 1);
      dropReferences(d, ids);
      return { code: '011', label: shortLabel(f.item.name) };
    }
    case 'block.update': {
      const f = findBlock(d, c.blockId);
      if (!f) return null;
      const { name, customParams, callbackUrl } = c.patch;
      if (name !== undefined) f.item.name = name;
      if (customParams !== undefined) f.item.customParams = customParams;
      if (callbackUrl !== undefined) f.item.callbackUrl = callbackUrl;
      return { code: '009', label: shortLabel(f.item.name) };
    }
    case 'question.add': {
      const f = findBlock(d, c.blockId);
      if (!f) return null;
      const q = newQuestion(c.question);
      f.item.questions.splice(clampIndex(c.index, f.item.questions.length), 0, q);
      return { code: '005', label: shortLabel(q.text) };
    }
    case 'question.delete': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      f.list.splice(f.index, 1);
      dropReferences(d, new Set([c.questionId]));
      return { code: '006', label: shortLabel(f.item.text) };
    }
    case 'question.update': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      const patch = { ...c.patch } as Record<string, unknown>;
      delete patch.id;
      delete patch.category;
      delete patch.answers;
      delete patch.statements;
      Object.assign(f.item, patch);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'question.setCategory': {
      const f = findQuestion(d, c.questionId);
      if (!f || f.item.category === c.category) return null;
      f.list[f.index] = withCategory(f.item as Question, c.category);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'question.move': {
      const f = findQuestion(d, c.questionId);
      const to = findBlock(d, c.toBlockId);
      if (!f || !to) return null;
      const [q] = f.list.splice(f.index, 1);
      to.item.questions.splice(clampIndex(c.index, to.item.questions.length), 0, q);
      return { code: '012', label: shortLabel(q.text) };
    }
    case 'answer.add': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      const a = newAnswer({ screening: f.item.category === 'screening' ? 'allow' : null, ...c.answer });
      f.item.answers.splice(clampIndex(c.index, f.item.answers.length), 0, a);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'answer.addMany': {
      const f = findQuestion(d, c.questionId);
      if (!f || c.texts.length === 0) return null;
      const screening = f.item.category === 'screening' ? 'allow' : null;
      const filled = c.fill === undefined ? undefined : f.item.answers.find((a) => a.id === c.fill);
      const texts = filled && filled.text === '' ? c.texts.slice(1) : c.texts;
      if (filled && filled.text === '') filled.text = c.texts[0];
      const added = texts.map((text) => newAnswer({ text, screening }));
      f.item.answers.splice(clampIndex(c.index, f.item.answers.length), 0, ...added);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'answer.update': {
      const f = findQuestion(d, c.questionId);
      const a = f?.item.answers.find((x) => x.id === c.answerId);
      if (!f || !a) return null;
      const { id: _id, ...patch } = c.patch as Partial<Answer>;
      Object.assign(a, patch);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'pictures.replace': {
      // Labelled with the first question whose pictures changed; nothing to swap: no step.
      let label: string | null = null;
      const swap = (ref: string | null, q: Draft<Question>) => {
        if (ref === null || !Object.hasOwn(c.urls, ref)) return ref;
        label ??= q.text;
        return c.urls[ref];
      };
      for (const qn of d.questionnaires)
        for (const b of qn.blocks)
          for (const q of b.questions) {
            q.picture = swap(q.picture, q);
            for (const a of q.answers) a.picture = swap(a.picture, q);
          }
      return label === null ? null : { code: '008', label: shortLabel(label) };
    }
    case 'answer.delete': {
      const f = findQuestion(d, c.questionId);
      const i = f ? f.item.answers.findIndex((x) => x.id === c.answerId) : -1;
      if (!f || i < 0) return null;
      f.item.answers.splice(i, 1);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'answer.move': {
      const f = findQuestion(d, c.questionId);
      const i = f ? f.item.answers.findIndex((x) => x.id === c.answerId) : -1;
      if (!f || i < 0) return null;
      const [a] = f.item.answers.splice(i, 1);
      f.item.answers.splice(clampIndex(c.index, f.item.answers.length), 0, a);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'statement.add': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      f.item.statements.splice(clampIndex(c.index, f.item.statements.length), 0, newStatement(c.statement));
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'statement.update': {
      const f = findQuestion(d, c.questionId);
      const s = f?.item.statements.find((x) => x.id === c.statementId);
      if (!f || !s) return null;
      s.text = c.text;
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'statement.delete': {
      const f = findQuestion(d, c.questionId);
      const i = f ? f.item.statements.findIndex((x) => x.id === c.statementId) : -1;
      if (!f || i < 0) return null;
      f.item.statements.splice(i, 1);
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'redirect.set': {
      const f = findQuestion(d, c.questionId);
      if (!f) return null;
      const holder = c.answerId === undefined ? f.item : f.item.answers.find((a) => a.id === c.answerId);
      if (!holder) return null;
      holder.redirect = c.redirect && {
        ...c.redirect,
        target: c.redirect.target ?? createTarget(d, f, c.redirect.kind),
      };
      return { code: '008', label: shortLabel(f.item.text) };
    }
    case 'portrait.add': {
      const p = newPortrait(c.portrait);
      d.portraits.push(p);
      return { code: '003', label: shortLabel(p.name) };
    }
    case 'portrait.update': {
      const p = d.portraits.find((x) => x.id === c.portraitId);
      if (!p) return null;
      const { id: _id, ...patch } = c.patch as Partial<Portrait>;
      Object.assign(p, patch);
      return { code: '003', label: shortLabel(p.name) };
    }
    case 'portrait.delete': {
      const i = d.portraits.findIndex((x) => x.id === c.portraitId);
      if (i < 0) return null;
      const [p] = d.portraits.splice(i, 1);
      return { code: '003', label: shortLabel(p.name) };
    }
    case 'language.add':
    case 'language.remove':
    case 'texts.set':
      return performLanguageCommand(d, c);
    case 'content.replace': {
      if (same(c.content, original(d))) return null;
      // Copied so the history's patches never share objects with the caller's content.
      d.questionnaires = structuredClone(c.content.questionnaires) as D['questionnaires'];
      d.portraits = structuredClone(c.content.portraits) as D['portraits'];
      // The languages come with the texts they name (a restored version, a merge).
      if (c.content.languages) d.languages = [...c.content.languages];
      else delete d.languages;
      return { code: '010', label: shortLabel(c.label) };
    }
    case 'import': {
      const count = c.blocks.reduce((n, b) => n + b.questions.length, 0);
      let f = c.questionnaireId === null ? null : findQuestionnaire(d, c.questionnaireId);
      if (count === 0 || (!f && c.questionnaireId !== null)) return null;
      if (!f) {
        d.questionnaires.push(newQuestionnaire({ blocks: [] }));
        f = {
          item: d.questionnaires[d.questionnaires.length - 1],
          list: d.questionnaires,
          index: d.questionnaires.length - 1,
        };
      }
      const blocks = f.item.blocks;
      let at = c.blockId === null ? -1 : blocks.findIndex((b) => b.id === c.blockId);
      let created = false;
      c.blocks.forEach((ib, i) => {
        if (ib.questions.length === 0) return;
        // Questions before any block marker go into the chosen block; each marker opens a new block after it.
        if (i === 0 && ib.name === null && at >= 0) {
          blocks[at].questions.push(...ib.questions);
          return;
        }
        at = at < 0 ? blocks.length - 1 : at;
        blocks.splice(at + 1, 0, newBlock({ name: ib.name ?? '', questions: ib.questions }));
        at++;
        created = true;
      });
      return { code: created ? '004' : '005', label: String(count) };
    }
  }
}

/** Creates the item a "new…" redirect points at, next to the question it starts from; returns its id. */
function createTarget(
  d: D,
  from: NonNullable<ReturnType<typeof findQuestion>>,
  kind: Redirect['kind'],
): string | null {
  const questionnaire = d.questionnaires[from.qn];
  switch (kind) {
    case 'newQuestionnaire': {
      const qn = newQuestionnaire();
      d.questionnaires.push(qn);
      return qn.id;
    }
    case 'newBlock': {
      const b = newBlock();
      const at = questionnaire.blocks.findIndex((x) => x.id === from.block.id);
      questionnaire.blocks.splice(at + 1, 0, b);
      return b.id;
    }
    case 'newQuestionInBlock': {
      const q = newQuestion();
      from.block.questions.push(q);
      return q.id;
    }
    case 'newQuestion': {
      const q = newQuestion();
      questionnaire.blocks[questionnaire.blocks.length - 1].questions.push(q);
      return q.id;
    }
    default:
      return null;
  }
}

export function performCommand(content: ProjectContent, command: Command): Performed | null {
  let change: { code: ChangeCode; label: string } | null = null;
  const [next, patches, inverse] = produceWithPatches(content, (d) => {
    change = perform(d, command);
  });
  if (!change || patches.length === 0) return null;
  const { code, label } = change as { code: ChangeCode; label: string };
  return { content: next, patches, inverse, code, label };
}
