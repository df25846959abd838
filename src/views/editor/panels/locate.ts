import type { Block, ProjectContent, Question, Questionnaire } from '../../../domain/content/model';

// Where an item sits in the content, by id: the indexes a user sees (1-based numbers) and the
// items around it. Questions are numbered through their questionnaire, as the outline numbers them,
// so "Question 14" is the same question on the canvas, the outline and in every message.

export interface QuestionPlace {
  question: Question;
  block: Block;
  questionnaire: Questionnaire;
  /** 0-based indexes. */
  qn: number;
  b: number;
  /** 1-based number of the question in its questionnaire. */
  number: number;
}

export function findQuestionPlace(content: ProjectContent, id: string): QuestionPlace | null {
  for (let qn = 0; qn < content.questionnaires.length; qn++) {
    const questionnaire = content.questionnaires[qn];
    let number = 0;
    for (let b = 0; b < questionnaire.blocks.length; b++) {
      const block = questionnaire.blocks[b];
      for (const question of block.questions) {
        number++;
        if (question.id === id) return { question, block, questionnaire, qn, b, number };
      }
    }
  }
  return null;
}

export interface BlockPlace {
  block: Block;
  questionnaire: Questionnaire;
  qn: number;
  b: number;
}

export function findBlockPlace(content: ProjectContent, id: string): BlockPlace | null {
  for (let qn = 0; qn < content.questionnaires.length; qn++) {
    const questionnaire = content.questionnaires[qn];
    const b = questionnaire.blocks.findIndex((x) => x.id === id);
    if (b >= 0) return { block: questionnaire.blocks[b], questionnaire, qn, b };
  }
  return null;
}

/** Every question of one questionnaire in order, with its number and block index. */
export function questionsOf(
  questionnaire: Questionnaire,
): { question: Question; number: number; b: number; block: Block }[] {
  const out: { question: Question; number: number; b: number; block: Block }[] = [];
  let number = 0;
  questionnaire.blocks.forEach((block, b) => {
    for (const question of block.questions) out.push({ question, number: ++number, b, block });
  });
  return out;
}
