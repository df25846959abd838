// Dexie reads the IndexedDB API when it loads: the fake must come first.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppDB } from '../../src/db/AppDB';
import {
  dropUnreferenced,
  historyRefs,
  queuePicture,
  queuedPicture,
  queuedRefs,
  referencedRefs,
  uploadPlan,
} from '../../src/db/pendingPictures';
import { edit, openDoc, undo } from '../../src/domain/content/history';
import { pendingPictureId, pictureUrl } from '../../src/domain/content/limits';
import { checkContent } from '../../src/domain/content/rules';
import { blocksSave } from '../../src/domain/content/problems';
import { withCategory } from '../../src/domain/content/categories';
import { bigProject } from './content-fixtures';

// The queue of pictures chosen offline (issue 12 part 4) on fake-indexeddb: a picture waits under a
// local reference that survives a reopened database, the upload plan sends exactly what the content
// refers to, removed pictures stay queued while an undo can bring them back, the swap to uploaded URLs is one undoable edit, and
// the rules refuse a content that still holds a local reference (so the server never stores one).

let n = 0;
const fresh = () => new AppDB(`pending-pictures-${process.pid}-${++n}`);
const png = (tag: string) => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47]), tag], { type: 'image/png' });
const URL_A = pictureUrl('a'.repeat(64), 'png');
const URL_B = pictureUrl('b'.repeat(64), 'png');

describe('the pending pictures queue', () => {
  it('keeps the file under a local reference that survives reopening the database', async () => {
    const name = `pending-pictures-reopen-${process.pid}`;
    const db = new AppDB(name);
    const ref = await queuePicture(db, 7, png('one'), 'one.png');
    expect(ref).toMatch(/^local-picture:[0-9a-f]{32}$/);
    db.close();

    const again = new AppDB(name);
    const row = await queuedPicture(again, ref);
    expect(row).toMatchObject({ pid: 7, name: 'one.png', id: pendingPictureId(ref) });
    expect(await row!.blob.text()).toContain('one');
    expect(await queuedPicture(again, URL_A)).toBeNull();
    again.close();
  });

  it('plans the upload of exactly the pictures the content refers to, and names those it lost', async () => {
    const db = fresh();
    const content = bigProject({ blocks: 1, questions: 3, answers: 2 });
    const [q1, q2, q3] = content.questionnaires[0].blocks[0].questions;
    const onQuestion = await queuePicture(db, 7, png('q'), 'q.png');
    const onAnswer = await queuePicture(db, 7, png('a'), 'a.png');
    const removed = await queuePicture(db, 7, png('r'), 'r.png');
    const otherProject = await queuePicture(db, 8, png('o'), 'o.png');
    q1.picture = onQuestion;
    q2.answers[1].picture = onAnswer;
    q2.answers[0].picture = URL_A;
    q3.picture = onQuestion; // the same picture twice is uploaded once
    await db.pendingPictures.delete(pendingPictureId(removed)!);

    expect(queuedRefs(content)).toEqual([onQuestion, onAnswer]);
    const plan = await uploadPlan(db, 7, content);
    expect(plan.rows.map((r) => r.name)).toEqual(['q.png', 'a.png']);
    expect(plan.missing).toEqual([]);

    // A reference whose file is gone (removed, then brought back by an undo), or another project's.
    // (A new content, as every edit makes one: an unchanged block's references are read once.)
    const later = structuredClone(content);
    const q3later = later.questionnaires[0].blocks[0].questions[2];
    q3later.picture = removed;
    q3later.answers[0].picture = otherProject;
    expect((await uploadPlan(db, 7, later)).missing).toEqual([removed, otherProject]);
  });

  it('drops the rows nothing refers to, and only that project’s', async () => {
    const db = fresh();
    const content = bigProject({ blocks: 1, questions: 2, answers: 2 });
    const kept = await queuePicture(db, 7, png('k'), 'k.png');
    const orphan = await queuePicture(db, 7, png('x'), 'x.png');
    const other = await queuePicture(db, 8, png('o'), 'o.png');
    content.questionnaires[0].blocks[0].questions[0].picture = kept;
    // Rows from `before` on are left alone.
    expect(await dropUnreferenced(db, 7, () => queuedRefs(content), 0)).toBe(0);
    expect(await dropUnreferenced(db, 7, () => queuedRefs(content))).toBe(1);
    expect(await queuedPicture(db, kept)).not.toBeNull();
    expect(await queuedPicture(db, orphan)).toBeNull();
    expect(await queuedPicture(db, other)).not.toBeNull();
  });

  it('counts as referenced what an undo or a redo can bring back: a removed picture, a deleted question’s', () => {
    const content = bigProject({ blocks: 1, questions: 3, answers: 2 });
    const [q1, q2, q3] = content.questionnaires[0].blocks[0].questions;
    q1.picture = 'local-picture:removed';
    q2.answers[1].picture = 'local-picture:deleted';
    q3.picture = 'local-picture:stays';
    let doc = openDoc(content);
    doc = edit(doc, { type: 'question.update', questionId: q1.id, patch: { picture: null } })!.doc;
    doc = edit(doc, { type: 'question.delete', questionId: q2.id })!.doc;
    expect(queuedRefs(doc.content)).toEqual(['local-picture:stays']);
    // (A step's patches may also carry the items around it: what they name is kept too, harmlessly.)
    expect(historyRefs(doc)).toEqual(
      expect.arrayContaining(['local-picture:deleted', 'local-picture:removed']),
    );
    expect([...referencedRefs(doc)].sort()).toEqual([
      'local-picture:deleted',
      'local-picture:removed',
      'local-picture:stays',
    ]);
    // Undone: the redo stack holds the question's picture now, still referenced.
    const back = undo(doc)!.doc;
    expect(queuedRefs(back.content)).toEqual(['local-picture:deleted', 'local-picture:stays']);
    expect(referencedRefs(back)).toEqual(referencedRefs(doc));
    // A fresh history (the page reloaded) holds nothing.
    expect(historyRefs(openDoc(doc.content))).toEqual([]);
  });

  it('swaps every local reference for its URL in one edit that one undo takes back', () => {
    const content = bigProject({ blocks: 2, questions: 2, answers: 2 });
    const qs = content.questionnaires[0].blocks.flatMap((b) => b.questions);
    qs[0].picture = 'local-picture:aaa';
    qs[3].answers[1].picture = 'local-picture:bbb';
    qs[2].picture = URL_B;
    const doc = openDoc(content);
    const step = edit(doc, {
      type: 'pictures.replace',
      urls: { 'local-picture:aaa': URL_A, 'local-picture:bbb': URL_B, 'local-picture:zzz': URL_A },
    })!;
    const after = step.doc.content.questionnaires[0].blocks.flatMap((b) => b.questions);
    expect(after[0].picture).toBe(URL_A);
    expect(after[3].answers[1].picture).toBe(URL_B);
    expect(after[2].picture).toBe(URL_B);
    expect(queuedRefs(step.doc.content)).toEqual([]);
    expect(step.change).toMatchObject({ code: '008' });
    expect(step.doc.undo).toHaveLength(1);
    expect(undo(step.doc)!.doc.content).toEqual(content);
    // Nothing to swap: no step in the history.
    expect(edit(step.doc, { type: 'pictures.replace', urls: { 'local-picture:aaa': URL_A } })).toBeNull();
  });

  it('the rules refuse a save that still holds a local reference, naming the item', () => {
    const content = bigProject({ blocks: 1, questions: 2, answers: 2 });
    const [q1, q2] = content.questionnaires[0].blocks[0].questions;
    q1.picture = 'local-picture:abc';
    q2.answers[1].picture = 'local-picture:def';
    const errors = blocksSave(checkContent(content, { projectType: 1 }));
    expect(errors.map((p) => [p.rule, p.path])).toEqual([
      ['picturePending', 'questionnaires.0.blocks.0.questions.0'],
      ['picturePending', 'questionnaires.0.blocks.0.questions.1.answers.1'],
    ]);
    // A category without answer pictures drops the answer's reference with the rest (then the row is an orphan).
    const open = withCategory(q2, 'open');
    expect(open.answers.every((a) => a.picture === null)).toBe(true);
    // Anything else that is not an uploaded picture stays the spec's 40516.
    q1.picture = 'local-picture:../../etc';
    expect(blocksSave(checkContent(content, { projectType: 1 }))[0]).toMatchObject({
      rule: 'questionPicture',
      code: 40516,
    });
  });
});
