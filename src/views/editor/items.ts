import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { ProjectContent } from '../../domain/content/model';
import type { EditorSelection } from './selection';

// Where an item sits in the content and how the editor names it ("Questionnaire 1 › Block 3 ›
// Question 12"): questions are numbered through their questionnaire, as respondents meet them.

export interface Located {
  qn: number;
  block: number | null;
  question: number | null;
  /** The question's number through its questionnaire (1-based). */
  number: number | null;
}

export function locate(content: ProjectContent, sel: EditorSelection): Located | null {
  if (!sel) return null;
  for (let i = 0; i < content.questionnaires.length; i++) {
    const qn = content.questionnaires[i];
    if (sel.kind === 'questionnaire' && qn.id === sel.id)
      return { qn: i, block: null, question: null, number: null };
    let n = 0;
    for (let j = 0; j < qn.blocks.length; j++) {
      const b = qn.blocks[j];
      if (sel.kind === 'block' && b.id === sel.id) return { qn: i, block: j, question: null, number: null };
      for (let k = 0; k < b.questions.length; k++) {
        n++;
        if (sel.kind === 'question' && b.questions[k].id === sel.id)
          return { qn: i, block: j, question: k, number: n };
      }
    }
  }
  return null;
}

/** The deepest questionnaire, block or question a rules path names (null for the project or a portrait). */
export function selectionOfPath(content: ProjectContent, path: string): EditorSelection {
  const m = /^questionnaires\.(\d+)(?:\.blocks\.(\d+)(?:\.questions\.(\d+))?)?/.exec(path);
  if (!m) return null;
  const qn = content.questionnaires[Number(m[1])];
  if (!qn) return null;
  const b = m[2] === undefined ? undefined : qn.blocks[Number(m[2])];
  if (!b) return { kind: 'questionnaire', id: qn.id };
  const q = m[3] === undefined ? undefined : b.questions[Number(m[3])];
  return q ? { kind: 'question', id: q.id } : { kind: 'block', id: b.id };
}

export function questionnaireName(LL: TranslationFunctions, name: string | undefined, n: number) {
  return name
    ? LL.editor.frame.outline.questionnaireNamed({ n, name })
    : LL.editor.frame.outline.questionnaire({ n });
}

export function blockName(LL: TranslationFunctions, name: string, n: number) {
  return name ? LL.editor.frame.outline.blockNamed({ n, name }) : LL.editor.frame.outline.block({ n });
}

/** "Questionnaire 1 › Block 3 › Question 12" for a rules path; "Project" for the whole. */
export function pathLabel(LL: TranslationFunctions, content: ProjectContent, path: string): string {
  const parts: string[] = [];
  const portrait = /^portraits\.(\d+)/.exec(path);
  if (portrait) return LL.editor.frame.path.portrait({ n: Number(portrait[1]) + 1 });
  const sel = selectionOfPath(content, path);
  const at = locate(content, sel);
  if (!at) return LL.editor.frame.path.project();
  const qn = content.questionnaires[at.qn];
  parts.push(questionnaireName(LL, qn.name, at.qn + 1));
  if (at.block !== null) parts.push(blockName(LL, qn.blocks[at.block].name, at.block + 1));
  if (at.number !== null) parts.push(LL.editor.frame.outline.question({ n: at.number }));
  const answer = /\.answers\.(\d+)/.exec(path);
  if (answer) parts.push(LL.editor.frame.path.answer({ n: Number(answer[1]) + 1 }));
  return parts.join(' › ');
}

/** The name of the selected item as the outline shows it. */
export function selectionLabel(
  LL: TranslationFunctions,
  content: ProjectContent,
  sel: EditorSelection,
): string {
  const at = locate(content, sel);
  if (!at) return '';
  const qn = content.questionnaires[at.qn];
  if (at.block === null) return questionnaireName(LL, qn.name, at.qn + 1);
  const b = qn.blocks[at.block];
  if (at.question === null) return blockName(LL, b.name, at.block + 1);
  const q = b.questions[at.question];
  return q.text
    ? LL.editor.frame.outline.questionText({ n: at.number!, text: q.text })
    : LL.editor.frame.outline.question({ n: at.number! });
}
