import type { ImportedBlock } from './commands';
import type { TextEntry } from './languageEdits';
import { translation } from './languages';
import type { ProjectContent } from './model';
import { unitKey } from '../translations/units';

// "Import from list" into one language of an existing questionnaire (issue 32, part 6): a pasted
// questionnaire (the list or Qualtrics format, read by import.ts) fills the texts of that language
// by position: the n-th question of the list gives the n-th question's text, its answers and rows
// the question's answers and rows in order. Nothing is added or removed: what has no counterpart is
// left out and said. The result is one `texts.set` command, shown first as "what goes where".

export interface FillPlace {
  block: number;
  /** The question's number in its questionnaire. */
  question: number;
  answer?: number;
  statement?: number;
}

export interface FillRow {
  key: string;
  place: FillPlace;
  /** The text there now in that language ('' when none). */
  now: string;
  next: string;
}

export interface FillMismatch {
  place: FillPlace;
  what: 'answers' | 'statements';
  list: number;
  questionnaire: number;
}

export interface FillPlan {
  language: string;
  /** Every text the list puts somewhere (changed or not), in order. */
  rows: FillRow[];
  /** The texts that change: the command's. */
  texts: TextEntry[];
  listQuestions: number;
  questions: number;
  mismatches: FillMismatch[];
}

export function planFill(
  content: ProjectContent,
  questionnaireId: string,
  language: string,
  blocks: readonly ImportedBlock[],
): FillPlan | null {
  const qn = content.questionnaires.find((x) => x.id === questionnaireId);
  if (!qn) return null;
  const listed = blocks.flatMap((b) => b.questions);
  const targets = qn.blocks.flatMap((b, bi) => b.questions.map((q) => ({ q, block: bi + 1 })));
  const plan: FillPlan = {
    language,
    rows: [],
    texts: [],
    listQuestions: listed.length,
    questions: targets.length,
    mismatches: [],
  };
  const add = (key: string, place: FillPlace, now: string | undefined, next: string) => {
    if (next.trim() === '') return;
    plan.rows.push({ key, place, now: now ?? '', next });
    if ((now ?? '') !== next) plan.texts.push({ key, text: next });
  };
  const n = Math.min(listed.length, targets.length);
  for (let i = 0; i < n; i++) {
    const from = listed[i];
    const { q, block } = targets[i];
    const place = { block, question: i + 1 };
    add(unitKey('question', q.id, null, 'text'), place, translation(q, 'text', language, content), from.text);
    const pairs = [
      ['answers', q.answers, from.answers, 'answer'],
      ['statements', q.statements, from.statements, 'statement'],
    ] as const;
    for (const [what, ours, theirs, kind] of pairs) {
      if (theirs.length > 0 && theirs.length !== ours.length)
        plan.mismatches.push({ place, what, list: theirs.length, questionnaire: ours.length });
      for (let j = 0; j < Math.min(ours.length, theirs.length); j++)
        add(
          unitKey(kind, q.id, ours[j].id, 'text'),
          { ...place, [kind]: j + 1 },
          translation(ours[j], 'text', language, content),
          theirs[j].text,
        );
    }
  }
  return plan;
}
