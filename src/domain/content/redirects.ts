import { CATEGORY_RULES } from './categories';
import type { ProjectContent, Redirect } from './model';
import type { Problem } from './problems';

// Redirects as a graph: where each question can lead the respondent next. A redirect is incorrect
// when its target is missing, of the wrong kind or outside its scope (a block of the current
// questionnaire, a question of the current block); the set is circular when some path through the
// questions comes back to a question already answered. Every possible path counts (any answer may
// be picked), because a respondent stuck in a loop is a broken survey even if few would hit it.

const END = -1;

interface QuestionNode {
  path: string;
  qn: number;
  b: number;
  /** Position of the question in its questionnaire (for "earlier question" checks). */
  order: number;
}

/** Where every item is, by id. Built once per check; linear in the size of the content. */
export interface ContentIndex {
  questionnaires: Map<string, number>;
  blocks: Map<string, { qn: number; b: number }>;
  /** Node number of each question (its index in `nodes`). */
  questions: Map<string, number>;
  nodes: QuestionNode[];
  /** First node of each block, or -1 for an empty block. */
  blockFirst: number[][];
}

export function indexContent(content: ProjectContent): ContentIndex {
  const index: ContentIndex = {
    questionnaires: new Map(),
    blocks: new Map(),
    questions: new Map(),
    nodes: [],
    blockFirst: [],
  };
  content.questionnaires.forEach((qn, i) => {
    if (!index.questionnaires.has(qn.id)) index.questionnaires.set(qn.id, i);
    const firsts: number[] = [];
    let order = 0;
    qn.blocks.forEach((block, j) => {
      if (!index.blocks.has(block.id)) index.blocks.set(block.id, { qn: i, b: j });
      firsts.push(block.questions.length > 0 ? index.nodes.length : -1);
      block.questions.forEach((q, k) => {
        if (!index.questions.has(q.id)) index.questions.set(q.id, index.nodes.length);
        index.nodes.push({
          path: `questionnaires.${i}.blocks.${j}.questions.${k}`,
          qn: i,
          b: j,
          order: order++,
        });
      });
    });
    index.blockFirst.push(firsts);
  });
  return index;
}

/** The first question a respondent meets when entering block b of questionnaire qn (empty blocks are passed through). */
function blockEntry(index: ContentIndex, qn: number, b: number): number {
  const firsts = index.blockFirst[qn];
  for (let j = b; j < firsts.length; j++) if (firsts[j] >= 0) return firsts[j];
  return END;
}

interface Resolved {
  ok: boolean;
  node: number;
  /** Why the redirect is incorrect. */
  reason?: 'noTarget' | 'missing' | 'outsideQuestionnaire' | 'outsideBlock' | 'notApplicable';
}

/** Where a redirect set on the question at `from` leads. */
function resolve(content: ProjectContent, index: ContentIndex, from: QuestionNode, r: Redirect): Resolved {
  switch (r.kind) {
    case 'completeBlock':
      return { ok: true, node: blockEntry(index, from.qn, from.b + 1) };
    case 'questionnaire':
    case 'newQuestionnaire': {
      if (!r.target) return { ok: false, node: END, reason: 'noTarget' };
      const qn = index.questionnaires.get(r.target);
      if (qn === undefined) return { ok: false, node: END, reason: 'missing' };
      return { ok: true, node: blockEntry(index, qn, 0) };
    }
    case 'block':
    case 'newBlock': {
      if (!r.target) return { ok: false, node: END, reason: 'noTarget' };
      const at = index.blocks.get(r.target);
      if (!at) return { ok: false, node: END, reason: 'missing' };
      if (at.qn !== from.qn) return { ok: false, node: END, reason: 'outsideQuestionnaire' };
      return { ok: true, node: blockEntry(index, at.qn, at.b) };
    }
    case 'questionInBlock':
    case 'newQuestionInBlock':
    case 'question':
    case 'newQuestion': {
      if (!r.target) return { ok: false, node: END, reason: 'noTarget' };
      const node = index.questions.get(r.target);
      if (node === undefined) return { ok: false, node: END, reason: 'missing' };
      const to = index.nodes[node];
      if (
        (r.kind === 'questionInBlock' || r.kind === 'newQuestionInBlock') &&
        (to.qn !== from.qn || to.b !== from.b)
      ) {
        return { ok: false, node: END, reason: 'outsideBlock' };
      }
      return { ok: true, node };
    }
  }
  void content;
  return { ok: false, node: END, reason: 'missing' };
}

interface Edge {
  to: number;
  /** The path of the redirect that makes this edge; null for the plain "next question" edge. */
  via: string | null;
}

/** Incorrect redirects and redirect cycles, as problems. Never throws. */
export function redirectProblems(
  content: ProjectContent,
  index: ContentIndex = indexContent(content),
): Problem[] {
  const problems: Problem[] = [];
  const edges: Edge[][] = index.nodes.map(() => []);
  const bad = (path: string, reason: string) =>
    problems.push({ rule: 'redirectTarget', code: null, severity: 'error', path, params: { reason } });

  let n = 0;
  content.questionnaires.forEach((qn, i) =>
    qn.blocks.forEach((block, j) =>
      block.questions.forEach((q, k) => {
        const u = n++;
        const from = index.nodes[u];
        const rules = CATEGORY_RULES[q.category];
        const out = edges[u];
        let redirected = 0;
        q.answers.forEach((a, m) => {
          if (!a.redirect) return;
          const path = `${from.path}.answers.${m}.redirect`;
          if (!rules.answerRedirects) return bad(path, 'notApplicable');
          const r = resolve(content, index, from, a.redirect);
          if (!r.ok) return bad(path, r.reason!);
          redirected++;
          if (r.node !== END) out.push({ to: r.node, via: path });
        });
        // When one answer is picked and every answer (and no "other") redirects, nothing falls through.
        const fallsThrough = !(
          rules.single &&
          q.answers.length > 0 &&
          redirected === q.answers.length &&
          q.other === null
        );
        if (!fallsThrough) return;
        let next = k + 1 < block.questions.length ? u + 1 : blockEntry(index, i, j + 1);
        let via: string | null = null;
        if (q.redirect) {
          const path = `${from.path}.redirect`;
          const r = resolve(content, index, from, q.redirect);
          if (!r.ok) bad(path, r.reason!);
          else {
            next = r.node;
            via = path;
          }
        }
        if (next !== END) out.push({ to: next, via });
      }),
    ),
  );

  for (const cycle of findCycles(edges)) {
    const redirects = [...new Set(cycle.filter((e) => e.via !== null).map((e) => e.via!))];
    problems.push({
      rule: 'redirectCycle',
      code: null,
      severity: 'error',
      path: redirects[0] ?? '',
      redirects,
    });
  }
  return problems;
}

/**
 * One cycle (as its edges) per strongly connected part of the graph that has one. Tarjan's
 * algorithm, written without recursion so a long questionnaire cannot overflow the stack.
 */
function findCycles(edges: Edge[][]): Edge[][] {
  const count = edges.length;
  const indexOf = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const component = new Int32Array(count).fill(-1);
  const stack: number[] = [];
  const components: number[][] = [];
  let next = 0;

  for (let root = 0; root < count; root++) {
    if (indexOf[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    indexOf[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i < edges[v].length) {
        top[1]++;
        const w = edges[v][i].to;
        if (indexOf[w] === -1) {
          indexOf[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], indexOf[w]);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === indexOf[v]) {
        const members: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component[w] = components.length;
          members.push(w);
        } while (w !== v);
        components.push(members);
      }
    }
  }

  const cycles: Edge[][] = [];
  components.forEach((members, c) => {
    const start = members[members.length - 1];
    const selfLoop = edges[start].find((e) => e.to === start);
    if (members.length === 1 && !selfLoop) return;
    if (selfLoop) return void cycles.push([selfLoop]);
    // Shortest way round from `start` back to itself, inside the component (breadth first).
    const cameBy = new Map<number, { from: number; edge: Edge }>();
    const queue = [start];
    let found: { from: number; edge: Edge } | null = null;
    for (let qi = 0; qi < queue.length && !found; qi++) {
      const v = queue[qi];
      for (const e of edges[v]) {
        if (component[e.to] !== c) continue;
        if (e.to === start) {
          found = { from: v, edge: e };
          break;
        }
        if (!cameBy.has(e.to)) {
          cameBy.set(e.to, { from: v, edge: e });
          queue.push(e.to);
        }
      }
    }
    if (!found) return;
    const path: Edge[] = [found.edge];
    for (let v = found.from; v !== start;) {
      const step = cameBy.get(v)!;
      path.push(step.edge);
      v = step.from;
    }
    cycles.push(path.reverse());
  });
  return cycles;
}
