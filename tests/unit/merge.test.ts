import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { performCommand, type Command } from '../../src/domain/content/commands';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { flatten, ownerOf, type FlatContent } from '../../src/domain/content/flat';
import { diffContent, summarizeChanges } from '../../src/domain/content/diff';
import { mergeContent, type MergeResult } from '../../src/domain/content/merge';
import type { ProjectContent } from '../../src/domain/content/model';
import { arbEditSeed, bigProject, commandFor, type EditSeed } from './content-fixtures';

// Three-way merge by item id: disjoint edits merge to what applying both gives, in either order;
// no edit of either side disappears without a conflict naming it; merging again changes nothing.

let counter = 0;
/** Fixed ids for what a command adds, so that replaying it elsewhere adds the same item. */
function withIds(c: Command): Command {
  const id = () => `t${++counter}`;
  switch (c.type) {
    case 'question.add':
      return { ...c, question: { ...c.question, id: id() } };
    case 'answer.add':
      return { ...c, answer: { ...c.answer, id: id() } };
    case 'statement.add':
      return { ...c, statement: { ...c.statement, id: id() } };
    case 'portrait.add':
      return { ...c, portrait: { ...c.portrait, id: id() } };
    default:
      return c;
  }
}

/** Applies the seeds' commands, keeping only those that give the same result every time (no random ids). */
function runSeeds(content: ProjectContent, seeds: EditSeed[]) {
  const commands: Command[] = [];
  for (const s of seeds) {
    const c = withIds(commandFor(content, s));
    const a = performCommand(content, c);
    const b = performCommand(content, c);
    if (!a || !b || JSON.stringify(a.content) !== JSON.stringify(b.content)) continue;
    commands.push(c);
    content = a.content;
  }
  return { content, commands };
}

function replay(content: ProjectContent, commands: Command[]): ProjectContent {
  for (const c of commands) content = performCommand(content, c)?.content ?? content;
  return content;
}

/** Items a side's edits touched: each changed item, what it held if removed, and the list owners it left or joined. */
function footprint(base: ProjectContent, side: ProjectContent): Set<string> {
  const b = flatten(base);
  const s = flatten(side);
  const out = new Set<string>();
  const under = (flat: FlatContent, key: string) => {
    for (const [list, keys] of flat.lists)
      if (ownerOf(list) === key)
        for (const k of keys) {
          out.add(k);
          under(flat, k);
        }
  };
  for (const d of diffContent(base, side)) {
    out.add(d.key);
    for (const flat of [b, s]) {
      const it = flat.items.get(d.key);
      if (it) out.add(ownerOf(it.list));
    }
    if (d.change === 'removed') under(b, d.key);
  }
  out.delete('');
  return out;
}

function start(): ProjectContent {
  const c = structuredClone(bigProject({ blocks: 3, questions: 3, answers: 2 }));
  c.questionnaires.push(newQuestionnaire({ id: 'qn1', blocks: [newBlock({ id: 'bx', name: 'X' })] }));
  return c;
}

const seqs = fc.tuple(fc.array(arbEditSeed, { maxLength: 8 }), fc.array(arbEditSeed, { maxLength: 8 }));

/** Every key a conflict decides: its own and those inside it, with what is under them. */
function shownKeys(r: MergeResult): Set<string> {
  const out = new Set<string>();
  for (const c of r.conflicts) {
    out.add(c.key);
    for (const k of c.inside) out.add(k);
  }
  return out;
}

/** Whether a conflict decides the item: itself, or an item holding it on any side. */
function isShown(key: string, shown: Set<string>, flats: FlatContent[]): boolean {
  return flats.some((f) => {
    let k: string | undefined = key;
    for (let depth = 0; k && depth < 10; depth++) {
      if (shown.has(k)) return true;
      const it = f.items.get(k);
      k = it ? ownerOf(it.list) : undefined;
    }
    return false;
  });
}

describe('three-way merge', () => {
  it('merges disjoint edits to what applying both gives, in either order, with no conflict', () => {
    let checked = 0;
    fc.assert(
      fc.property(seqs, ([sa, sb]) => {
        const base = start();
        const a = runSeeds(base, sa);
        const b = runSeeds(base, sb);
        const fa = footprint(base, a.content);
        const fb = footprint(base, b.content);
        fc.pre([...fa].every((k) => !fb.has(k)));
        const ab = replay(a.content, b.commands);
        const ba = replay(b.content, a.commands);
        fc.pre(JSON.stringify(ab) === JSON.stringify(ba));
        checked++;
        const m1 = mergeContent(base, a.content, b.content);
        const m2 = mergeContent(base, b.content, a.content);
        expect(m1.conflicts).toEqual([]);
        expect(m2.conflicts).toEqual([]);
        expect(m1.content).toEqual(ab);
        expect(m2.content).toEqual(ab);
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(50);
  }, 60_000);

  it('never loses an edit of either side without a conflict that names it', () => {
    fc.assert(
      fc.property(seqs, ([sa, sb]) => {
        const base = start();
        const a = runSeeds(base, sa).content;
        const b = runSeeds(base, sb).content;
        const r = mergeContent(base, a, b);
        const merged = flatten(r.content);
        const shown = shownKeys(r);
        const flats = [flatten(a), flatten(b), flatten(base)];
        for (const side of [a, b]) {
          const s = flatten(side);
          for (const d of diffContent(base, side)) {
            const got = merged.items.get(d.key);
            if (isShown(d.key, shown, flats)) continue;
            const place = s.items.get(d.key)?.list;
            const reorder = d.change === 'moved' && place === flats[2].items.get(d.key)!.list;
            if (d.change === 'removed') expect(got, `${d.key} removed`).toBeUndefined();
            // A reorder alone does not keep alive an item the other side deleted (nothing of it is lost).
            else if (!reorder) expect(got, `${d.key} ${d.change}`).toBeDefined();
            if (d.change === 'changed')
              for (const f of d.fields) expect(got!.fields[f], `${d.key}.${f}`).toEqual(d.after![f]);
            if (d.change === 'moved' && !reorder) expect(got!.list, `${d.key} place`).toBe(place);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('is idempotent: merging the result again, or a side with itself, changes nothing', () => {
    fc.assert(
      fc.property(seqs, ([sa, sb]) => {
        const base = start();
        const a = runSeeds(base, sa).content;
        const b = runSeeds(base, sb).content;
        expect(mergeContent(base, a, a).content).toEqual(a);
        expect(mergeContent(base, a, base).content).toEqual(a);
        expect(mergeContent(base, base, b).content).toEqual(b);
        const r = mergeContent(base, a, b);
        fc.pre(r.conflicts.length === 0);
        expect(mergeContent(base, r.content, b).content).toEqual(r.content);
        expect(mergeContent(base, a, r.content).content).toEqual(r.content);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('shows only the item changed on both sides, and merges the rest', () => {
    const base = start();
    const mine = performCommand(base, {
      type: 'question.update',
      questionId: 'q0_0',
      patch: { text: 'mine' },
    })!.content;
    const mine2 = performCommand(mine, {
      type: 'question.update',
      questionId: 'q1_0',
      patch: { text: 'only mine' },
    })!.content;
    let theirs = performCommand(base, {
      type: 'question.update',
      questionId: 'q0_0',
      patch: { text: 'theirs' },
    })!.content;
    theirs = performCommand(theirs, {
      type: 'block.update',
      blockId: 'b2',
      patch: { name: 'Renamed' },
    })!.content;
    const r = mergeContent(base, mine2, theirs);
    expect(r.conflicts.map((c) => [c.id, c.fields, c.mine?.text, c.theirs?.text])).toEqual([
      ['q0_0', ['text'], 'mine', 'theirs'],
    ]);
    const q = (c: ProjectContent, id: string) =>
      c.questionnaires[0].blocks.flatMap((b) => b.questions).find((x) => x.id === id)!;
    expect(q(r.content, 'q0_0').text).toBe('mine');
    expect(q(r.content, 'q1_0').text).toBe('only mine');
    expect(r.content.questionnaires[0].blocks[2].name).toBe('Renamed');
    expect(summarizeChanges(base, theirs)).toEqual([
      { code: '008', label: 'theirs' },
      { code: '009', label: 'Renamed' },
    ]);
    const chosen = mergeContent(base, mine2, theirs, { q0_0: 'theirs' });
    expect(q(chosen.content, 'q0_0').text).toBe('theirs');
    expect(q(chosen.content, 'q1_0').text).toBe('only mine');
  });

  it('a block deleted on one side and changed inside on the other is one conflict, kept whole if chosen', () => {
    const base = start();
    const mine = performCommand(base, { type: 'block.delete', blockId: 'b1' })!.content;
    let theirs = performCommand(base, {
      type: 'question.update',
      questionId: 'q1_1',
      patch: { text: 'edited' },
    })!.content;
    theirs = performCommand(theirs, {
      type: 'answer.add',
      questionId: 'q1_2',
      answer: newAnswer({ id: 'new1', text: 'new answer' }),
    })!.content;
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts.map((c) => [c.key, c.reason, c.inside.sort()])).toEqual([
      ['b1', 'deletedByMine', ['q1_1', 'q1_2']],
    ]);
    expect(r.content.questionnaires[0].blocks.map((b) => b.id)).toEqual(['b0', 'b2']);
    const kept = mergeContent(base, mine, theirs, { b1: 'theirs' }).content;
    expect(kept).toEqual(theirs);
  });

  it('merges moves by id: a question moved on one side keeps the other side’s edit', () => {
    const base = start();
    const mine = performCommand(base, {
      type: 'question.move',
      questionId: 'q0_0',
      toBlockId: 'b2',
      index: 1,
    })!.content;
    const theirs = performCommand(base, {
      type: 'question.update',
      questionId: 'q0_0',
      patch: { text: 'moved and edited' },
    })!.content;
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    const b2 = r.content.questionnaires[0].blocks[2].questions;
    expect(b2.map((q) => q.id)).toEqual(['q2_0', 'q0_0', 'q2_1', 'q2_2']);
    expect(b2[1].text).toBe('moved and edited');
  });

  it('places a reordered question after the one it follows when the other side moved that one too, so merging again changes nothing', () => {
    // Found by the idempotency property (seed 1813245263): mine adds t1 and moves q1_1 to the top,
    // theirs moves q1_2 to the top. In the merge, q1_0 follows q1_1 on both sides; placed before
    // q1_1 had been, it went to the top, and merging the result again with mine reordered it.
    const base = start();
    const run = (content: ProjectContent, commands: Command[]) =>
      commands.reduce((c, command) => performCommand(c, command)!.content, content);
    const mine = run(base, [
      {
        type: 'question.add',
        blockId: 'b1',
        index: 2,
        question: { id: 't1', text: 'New', category: 'oneAnswer' },
      },
      { type: 'question.move', questionId: 'q1_1', toBlockId: 'b1', index: 0 },
    ]);
    const theirs = run(base, [{ type: 'question.move', questionId: 'q1_2', toBlockId: 'b1', index: 0 }]);
    const order = (c: ProjectContent) => c.questionnaires[0].blocks[1].questions.map((q) => q.id);
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    expect(order(r.content)).toEqual(['q1_2', 'q1_1', 'q1_0', 't1']);
    expect(order(mergeContent(base, mine, r.content).content)).toEqual(order(r.content));
    expect(order(mergeContent(base, r.content, theirs).content)).toEqual(order(r.content));
  });

  it('a move to different blocks on both sides is a conflict of place', () => {
    const base = start();
    const mine = performCommand(base, {
      type: 'question.move',
      questionId: 'q0_0',
      toBlockId: 'b1',
      index: 0,
    })!.content;
    const theirs = performCommand(base, {
      type: 'question.move',
      questionId: 'q0_0',
      toBlockId: 'b2',
      index: 0,
    })!.content;
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts.map((c) => [c.id, c.fields])).toEqual([['q0_0', ['place']]]);
    const t = mergeContent(base, mine, theirs, { q0_0: 'theirs' }).content;
    expect(t.questionnaires[0].blocks[2].questions[0].id).toBe('q0_0');
  });

  it('lists a redirect the merge breaks as a problem', () => {
    const base = start();
    // Mine points q0_0 at q0_2; theirs deletes q0_2. Neither side alone is broken.
    const mine = performCommand(base, {
      type: 'redirect.set',
      questionId: 'q0_0',
      redirect: { kind: 'questionInBlock', target: 'q0_2' },
    })!.content;
    const theirs = performCommand(base, { type: 'question.delete', questionId: 'q0_2' })!.content;
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.broken.map((p) => [p.rule, p.path])).toEqual([
      ['redirectTarget', 'questionnaires.0.blocks.0.questions.0.redirect'],
    ]);
  });

  it('adds made on both sides with no base (a lost base) conflict only where they differ', () => {
    const empty: ProjectContent = { questionnaires: [], portraits: [] };
    const a = start();
    const b = structuredClone(a);
    b.questionnaires[0].blocks[0].questions[0].text = 'changed';
    b.questionnaires[0].blocks[0].questions.push(newQuestion({ id: 'extra', text: 'extra' }));
    const r = mergeContent(empty, a, b);
    expect(r.conflicts.map((c) => c.id)).toEqual(['q0_0']);
    expect(r.content.questionnaires[0].blocks[0].questions.map((q) => q.id)).toContain('extra');
  });

  it('keeps items apart whose ids collide across kinds (an answer id reused in another question)', () => {
    const base = start();
    base.questionnaires[0].blocks[1].questions[0].answers[0].id = 'a0_0_0';
    base.questionnaires[0].blocks[1].id = 'q0_0';
    const mine = performCommand(base, {
      type: 'answer.update',
      questionId: 'q1_0',
      answerId: 'a0_0_0',
      patch: { text: 'second question, mine' },
    })!.content;
    const theirs = performCommand(base, {
      type: 'answer.update',
      questionId: 'q0_0',
      answerId: 'a0_0_0',
      patch: { text: 'first question, theirs' },
    })!.content;
    const r = mergeContent(base, mine, theirs);
    expect(r.conflicts).toEqual([]);
    const blocks = r.content.questionnaires[0].blocks;
    expect(blocks[0].questions[0].answers[0].text).toBe('first question, theirs');
    expect(blocks[1].id).toBe('q0_0');
    expect(blocks[1].questions[0].answers[0].text).toBe('second question, mine');
  });

  it('summarizes changes in the change-log codes', () => {
    const base = start();
    let c = performCommand(base, { type: 'block.delete', blockId: 'b1' })!.content;
    c = performCommand(c, {
      type: 'question.add',
      blockId: 'b0',
      question: { id: 'n1', text: 'New' },
    })!.content;
    c = performCommand(c, { type: 'question.move', questionId: 'q0_0', toBlockId: 'b2', index: 0 })!.content;
    c = performCommand(c, { type: 'questionnaire.delete', questionnaireId: 'qn1' })!.content;
    expect(
      summarizeChanges(base, c)
        .map((s) => s.code)
        .sort(),
    ).toEqual(['005', '007', '011', '012']);
  });
});
