import { AppDB } from '../../src/db/AppDB';
import { writeDraft } from '../../src/db/drafts';
import { checkContent } from '../../src/domain/content/rules';
import { edit, openDoc, undo } from '../../src/domain/content/history';
import { BENCH_PROJECT, bigProject } from '../unit/content-fixtures';

// Bundled (esbuild) into the page that tests/bench/dexie.bench.ts opens in Chromium: the same
// autosave transaction the editor runs, on the browser's real IndexedDB.

function median(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 100) / 100;
}

async function run() {
  const db = new AppDB(`bench-${Date.now()}`);
  const content = bigProject();
  const project = BENCH_PROJECT;
  let doc = openDoc(content);
  const qid = content.questionnaires[0].blocks[25].questions[10].id;
  const autosave: number[] = [];
  for (let i = 0; i < 25; i++) {
    doc = edit(doc, { type: 'question.update', questionId: qid, patch: { text: `t${i}` } })!.doc;
    const t = performance.now();
    await writeDraft(db, {
      draft: {
        pid: 1,
        userId: 1,
        content: doc.content,
        baseVersion: 1,
        updatedAt: Date.now(),
        dirty: true,
        project,
      },
      rows: [{ pid: 1, seq: i + 1, code: '008', at: Date.now(), payload: { label: `t${i}`, kind: 'edit' } }],
      clearUpTo: null,
    });
    if (i >= 3) autosave.push(performance.now() - t);
  }
  const rules: number[] = [];
  const editUndo: number[] = [];
  for (let i = 0; i < 30; i++) {
    let t = performance.now();
    checkContent(doc.content, { projectType: 1 });
    rules.push(performance.now() - t);
    t = performance.now();
    doc = undo(edit(doc, { type: 'question.update', questionId: qid, patch: { text: `u${i}` } })!.doc)!.doc;
    editUndo.push(performance.now() - t);
  }
  db.close();
  return { autosave: median(autosave), rules: median(rules.slice(5)), editUndo: median(editUndo.slice(5)) };
}

(window as unknown as { runBench: typeof run }).runBench = run;
