import * as v from 'valibot';
import { checkContent } from '../../src/domain/content/rules';
import { edit, openDoc, undo } from '../../src/domain/content/history';
import { ContentSchema } from '../../src/domain/content/model';
import { importQuestions } from '../../src/domain/content/import';
import { bigProject } from '../unit/content-fixtures';
import { median, type BenchResult } from './run';

// The editor's core on a generated 1 000-question project (50 blocks × 20 questions × 5 answers),
// in Node: the whole rules check, one edit plus its undo, the server's schema parse of a save, and
// an import of 100 pasted questions. Budgets from DESIGN.md section 7 and issue 7.

export const title = 'Questionnaire content: rules, edit + undo (1 000 questions, Node)';

export default async function contentBench(): Promise<BenchResult[]> {
  const content = bigProject();
  const json = JSON.stringify(content);
  const results: BenchResult[] = [];

  results.push({
    name: 'rules: whole check of 1 000 questions',
    value: await median(() => checkContent(content, { projectType: 1 }), 50, 5),
    unit: 'ms',
    budget: 10,
  });

  results.push({
    name: 'open: JSON parse and freeze of the content',
    value: await median(() => openDoc(JSON.parse(json)), 20, 3),
    unit: 'ms',
    note: 'part of the 1 s open budget',
  });

  // The first edit after opening: the tree was frozen at open, so it should cost no more than later ones.
  const firstEdit: number[] = [];
  for (let i = 0; i < 10; i++) {
    const fresh = openDoc(JSON.parse(json));
    const qid = fresh.content.questionnaires[0].blocks[25].questions[10].id;
    const t = performance.now();
    undo(edit(fresh, { type: 'question.update', questionId: qid, patch: { text: 'x' } })!.doc);
    firstEdit.push(performance.now() - t);
  }
  firstEdit.sort((a, b) => a - b);
  results.push({
    name: 'first edit + undo after opening',
    value: Math.round(firstEdit[5] * 100) / 100,
    unit: 'ms',
    budget: 16,
  });

  let doc = openDoc(JSON.parse(json));
  const qid = doc.content.questionnaires[0].blocks[25].questions[10].id;
  let i = 0;
  results.push({
    name: 'one edit + undo (question text)',
    value: await median(
      () => {
        doc = undo(
          edit(doc, { type: 'question.update', questionId: qid, patch: { text: `text ${i++}` } })!.doc,
        )!.doc;
      },
      100,
      10,
    ),
    unit: 'ms',
    budget: 16,
  });
  const bid = doc.content.questionnaires[0].blocks[49].id;
  results.push({
    name: 'one edit + undo (add a question)',
    value: await median(
      () => {
        doc = undo(edit(doc, { type: 'question.add', blockId: bid })!.doc)!.doc;
      },
      100,
      10,
    ),
    unit: 'ms',
    budget: 16,
  });

  results.push({
    name: 'server: schema parse of the save body',
    value: await median(() => v.parse(ContentSchema, JSON.parse(json)), 20, 3),
    unit: 'ms',
    note: `${Math.round(json.length / 1024)} KB of JSON`,
  });

  const paste = Array.from(
    { length: 100 },
    (_, k) => `${k + 1}. Question ${k + 1}? [many]\n- one\n- two\n- three`,
  ).join('\n');
  results.push({
    name: 'import from list: 100 questions',
    value: await median(() => importQuestions(paste), 20, 3),
    unit: 'ms',
  });
  return results;
}
