import { CATEGORY_RULES } from '../content/categories';
import type { Answer, ProjectContent, Question, Redirect } from '../content/model';
import { arrange } from './shuffle';
import { checkReply, normalizeReply, type PageOffer, type Reply, type ReplyProblem } from './reply';

// The survey's flow, as one pure function: the content and the replies so far → every page shown
// (with the answers in the order shown), and the next page or the end and why. The runner, the
// editor's preview and the server call the same function, so a page the flow would not reach is one
// the server refuses, and what the researcher previews is what respondents get.
//
// One question is one page. A respondent moves through the blocks of one questionnaire in order;
// redirects (a picked answer's first, else the question's) move elsewhere, and a redirect to another
// questionnaire continues in that questionnaire. The end of the current questionnaire completes the
// survey. A screening answer that denies ends it ("screened out"); when a screening question has
// answers marked "allow only if at least one admitting answer", the respondent passes only by
// picking one of them. Pages left with nothing to offer (a recall filter that keeps no answer) are
// passed through.

export interface FlowStart {
  questionnaireId: string;
  /** The first question (the preview starts at the selected one); the questionnaire's first when absent. */
  questionId?: string | null;
  /** The respondent's seed for shuffled orders. */
  seed: string;
}

export interface ReplyEntry {
  questionId: string;
  reply: Reply;
}

export interface Page extends PageOffer {
  kind: 'page';
  /** Position of the page in the respondent's path (0 first). */
  index: number;
  questionnaireId: string;
  blockId: string;
  /** Pages done and an estimate of all pages (done + what is left of the current questionnaire in order). */
  progress: { done: number; total: number };
  /** The respondent may go back to the previous page (it led here without a redirect). */
  back: boolean;
}

export type EndReason = 'completed' | 'screenedOut';
export interface FlowEnd {
  kind: 'end';
  reason: EndReason;
}

export type FlowProblem = ReplyProblem | { code: 'notReachable' };

export interface FlowResult {
  /** The pages answered, one per accepted reply, as they were shown. */
  pages: Page[];
  /** Where the respondent is now. */
  next: Page | FlowEnd;
  /** The first reply that does not fit (its position and why); the replay stops there. */
  error: { index: number; problem: FlowProblem } | null;
}

interface Where {
  qn: number;
  b: number;
  k: number;
}

class Index {
  readonly questions = new Map<string, Where>();
  readonly blocks = new Map<string, { qn: number; b: number }>();
  readonly questionnaires = new Map<string, number>();
  constructor(readonly content: ProjectContent) {
    content.questionnaires.forEach((qn, i) => {
      if (!this.questionnaires.has(qn.id)) this.questionnaires.set(qn.id, i);
      qn.blocks.forEach((b, j) => {
        if (!this.blocks.has(b.id)) this.blocks.set(b.id, { qn: i, b: j });
        b.questions.forEach((q, k) => {
          if (!this.questions.has(q.id)) this.questions.set(q.id, { qn: i, b: j, k });
        });
      });
    });
  }
  question(w: Where): Question {
    return this.content.questionnaires[w.qn].blocks[w.b].questions[w.k];
  }
  /** The first question from block b on (empty blocks are passed through), or null past the end. */
  blockEntry(qn: number, b: number): Where | null {
    const blocks = this.content.questionnaires[qn]?.blocks ?? [];
    for (let j = b; j < blocks.length; j++) if (blocks[j].questions.length > 0) return { qn, b: j, k: 0 };
    return null;
  }
  sequentialNext(w: Where): Where | null {
    const block = this.content.questionnaires[w.qn].blocks[w.b];
    if (w.k + 1 < block.questions.length) return { ...w, k: w.k + 1 };
    return this.blockEntry(w.qn, w.b + 1);
  }
  /** Questions left in order from w to the end of its questionnaire, w included. */
  remaining(w: Where): number {
    const blocks = this.content.questionnaires[w.qn].blocks;
    let n = blocks[w.b].questions.length - w.k;
    for (let j = w.b + 1; j < blocks.length; j++) n += blocks[j].questions.length;
    return n;
  }
  /** Where a redirect leads; undefined when its target is gone (a draft being edited): go on in order. */
  resolve(from: Where, r: Redirect): Where | null | undefined {
    switch (r.kind) {
      case 'completeBlock':
        return this.blockEntry(from.qn, from.b + 1);
      case 'questionnaire':
      case 'newQuestionnaire': {
        const qn = r.target ? this.questionnaires.get(r.target) : undefined;
        return qn === undefined ? undefined : this.blockEntry(qn, 0);
      }
      case 'block':
      case 'newBlock': {
        const at = r.target ? this.blocks.get(r.target) : undefined;
        return at ? this.blockEntry(at.qn, at.b) : undefined;
      }
      default: {
        const at = r.target ? this.questions.get(r.target) : undefined;
        return at ?? undefined;
      }
    }
  }
}

const norm = (s: string) => s.trim().toLowerCase();

/** Answer ids a reply picked (choice questions), for recall filters and screening. */
function picked(reply: Reply | undefined): Set<string> {
  return new Set(reply?.answers ?? []);
}

/**
 * What a page offers. The recall filter keeps the answers whose text matches (or does not match) an
 * answer the respondent picked in the recalled question; answers are matched by text because the
 * recalling question lists its own copies of them.
 */
function offer(index: Index, q: Question, seed: string, replies: Map<string, Reply>): PageOffer {
  const r = CATEGORY_RULES[q.category];
  let answers: Answer[] = r.answers
    ? arrange(q.answers, r.shuffle && q.category !== 'matrix' ? q.shuffle : 'none', `${seed}:${q.id}`)
    : [];
  const statements = r.statements ? arrange(q.statements, q.shuffle, `${seed}:${q.id}`) : [];
  if (q.recall && r.answers) {
    const at = index.questions.get(q.recall.questionId);
    const source = at ? index.question(at) : null;
    const chosen = picked(replies.get(q.recall.questionId));
    const texts = new Set(
      source ? source.answers.filter((a) => chosen.has(a.id)).map((a) => norm(a.text)) : [],
    );
    const keep = q.recall.mode === 'selected';
    answers = answers.filter((a) => texts.has(norm(a.text)) === keep);
  }
  return { question: q, answers, statements };
}

function isEmptyOffer(o: PageOffer): boolean {
  const r = CATEGORY_RULES[o.question.category];
  if (!r.answers) return false;
  if (o.question.category === 'matrix') return o.answers.length === 0 || o.statements.length === 0;
  return o.answers.length === 0 && !(r.other && o.question.other !== null);
}

/** Where the respondent goes after answering q: another question, the end, or screened out. */
function after(
  index: Index,
  w: Where,
  q: Question,
  reply: Reply,
): { to: Where | null; plain: boolean } | 'screenedOut' {
  const r = CATEGORY_RULES[q.category];
  const chosen = picked(reply);
  const pickedAnswers = q.answers.filter((a) => chosen.has(a.id));
  if (r.screening) {
    if (pickedAnswers.some((a) => a.screening === 'deny')) return 'screenedOut';
    const admitting = q.answers.filter((a) => a.screening === 'allowIfAny');
    if (admitting.length > 0 && !pickedAnswers.some((a) => a.screening === 'allowIfAny'))
      return 'screenedOut';
  }
  const redirect = (r.answerRedirects ? pickedAnswers.find((a) => a.redirect)?.redirect : null) ?? q.redirect;
  if (redirect) {
    const to = index.resolve(w, redirect);
    if (to !== undefined) return { to, plain: false };
  }
  return { to: index.sequentialNext(w), plain: true };
}

// A frozen content cannot change (immer freezes the editor's drafts, the server freezes the content
// it caches), so its index is built once rather than on every replay; any other is indexed each time.
const indexes = new WeakMap<ProjectContent, Index>();
function indexOf(content: ProjectContent): Index {
  if (!Object.isFrozen(content)) return new Index(content);
  let index = indexes.get(content);
  if (!index) indexes.set(content, (index = new Index(content)));
  return index;
}

/** Replays the replies from the start and says where the respondent is. Never throws. */
export function runFlow(
  content: ProjectContent,
  start: FlowStart,
  replies: readonly ReplyEntry[],
): FlowResult {
  return runFlowFrom(content, start, replies, null).flow;
}

/**
 * Where a replay that accepted every reply stopped: runFlowFrom continues from it instead of
 * replaying those replies again (the server keeps one per respondent between answers). Valid only
 * for the same content object and start, with the replies it was made from as the first replies.
 */
export interface FlowCheckpoint {
  readonly content: ProjectContent;
  readonly count: number;
  readonly pages: readonly Page[];
  readonly answered: ReadonlyMap<string, Reply>;
  readonly visited: ReadonlySet<string>;
  readonly page: Page | null;
}

/** runFlow, continuing from a checkpoint when one fits; also answers the checkpoint of this replay. */
export function runFlowFrom(
  content: ProjectContent,
  start: FlowStart,
  replies: readonly ReplyEntry[],
  from: FlowCheckpoint | null,
): { flow: FlowResult; checkpoint: FlowCheckpoint | null } {
  const index = indexOf(content);
  const resume = from && from.content === content && from.count <= replies.length ? from : null;
  const pages: Page[] = resume ? [...resume.pages] : [];
  const answered = new Map<string, Reply>(resume?.answered);
  const visited = new Set<string>(resume?.visited);
  let at: Where | null = null;
  if (start.questionId) at = index.questions.get(start.questionId) ?? null;
  if (!at) {
    const qn = index.questionnaires.get(start.questionnaireId) ?? (content.questionnaires.length ? 0 : -1);
    at = qn >= 0 ? index.blockEntry(qn, 0) : null;
  }
  let plain = false;

  // The page at `w`, passing through pages with nothing to offer; null at the end.
  const pageAt = (w: Where | null, cameByPlainStep: boolean): Page | null => {
    let back = cameByPlainStep;
    while (w) {
      const q = index.question(w);
      if (visited.has(q.id)) return null; // a redirect loop in a draft: end rather than go round
      const o = offer(index, q, start.seed, answered);
      if (!isEmptyOffer(o)) {
        return {
          kind: 'page',
          ...o,
          index: pages.length,
          questionnaireId: content.questionnaires[w.qn].id,
          blockId: content.questionnaires[w.qn].blocks[w.b].id,
          progress: { done: pages.length, total: pages.length + index.remaining(w) },
          back: back && pages.length > 0,
        };
      }
      w = index.sequentialNext(w);
      back = false;
    }
    return null;
  };

  let page = resume ? resume.page : pageAt(at, plain);
  for (let i = resume ? resume.count : 0; i < replies.length; i++) {
    const entry = replies[i];
    if (!page || page.question.id !== entry.questionId) {
      const flow: FlowResult = {
        pages,
        next: page ?? { kind: 'end', reason: 'completed' },
        error: { index: i, problem: { code: 'notReachable' } },
      };
      return { flow, checkpoint: null };
    }
    const problem = checkReply(page, entry.reply);
    if (problem) return { flow: { pages, next: page, error: { index: i, problem } }, checkpoint: null };
    const q = page.question;
    const reply = normalizeReply(q, entry.reply);
    pages.push(page);
    visited.add(q.id);
    answered.set(q.id, reply);
    const w = index.questions.get(q.id)!;
    const step = after(index, w, q, reply);
    if (step === 'screenedOut') {
      const end: FlowEnd = { kind: 'end', reason: 'screenedOut' };
      const flow: FlowResult =
        i + 1 < replies.length
          ? { pages, next: end, error: { index: i + 1, problem: { code: 'notReachable' } } }
          : { pages, next: end, error: null };
      return { flow, checkpoint: null };
    }
    plain = step.plain;
    page = pageAt(step.to, plain);
  }
  const flow: FlowResult = { pages, next: page ?? { kind: 'end', reason: 'completed' }, error: null };
  // Shared, not copied: a continuation copies them before it changes anything.
  const checkpoint: FlowCheckpoint = { content, count: replies.length, pages, answered, visited, page };
  return { flow, checkpoint };
}

/** The questionnaire a respondent starts in: the portrait's, else the first. */
export function startQuestionnaire(
  content: ProjectContent,
  portraitQuestionnaireId?: string | null,
): string | null {
  if (portraitQuestionnaireId && content.questionnaires.some((q) => q.id === portraitQuestionnaireId))
    return portraitQuestionnaireId;
  return content.questionnaires[0]?.id ?? null;
}
