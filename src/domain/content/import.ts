import { CATEGORY_RULES } from './categories';
import type { ImportedBlock } from './commands';
import { newAnswer, newQuestion, newStatement } from './factory';
import { LIMITS, TEXT_MAX } from './limits';
import type { Question, QuestionCategory, ScreeningMode, ShuffleMode } from './model';

// "Import from list": pasted text → questions and answers. Two formats (docs/import-format.md):
//  - our list format: numbered ("1." / "1)") or blank-line separated questions, one answer per line,
//    "[marker]" for the category, "> " for matrix rows, "# name" for a new block;
//  - the Qualtrics Simple TXT format (and its [[Question:…]] headers) where it maps onto our
//    categories: [[Block:…]], [[PageBreak]], [[MultipleAnswer]], [[Choices]], [[Answers]].
// A failure names the line at fault and why; the screen shows 'Failed to process input!' with it.

export type ImportErrorReason =
  | 'empty'
  | 'tooLong'
  | 'unknownMarker'
  | 'answersNotAllowed'
  | 'statementsNotAllowed'
  | 'matrixNeedsStatements'
  | 'badScale'
  | 'badStars'
  | 'tooManyAnswers'
  | 'tooManyQuestions'
  | 'textBeforeFirstQuestion'
  | 'unsupportedTag'
  | 'unsupportedType'
  | 'tooManyGroups'
  | 'emptyQuestion';

/**
 * Readings of a paste that could have been meant otherwise: the editor shows what will be made and
 * asks before adding it.
 *  - numberedAnswers: lines of a second numbering style ("1)" under "1.") read as answers;
 *  - restartedNumbers: one numbering style that restarts under each question read as answers;
 *  - groupsAsText: Qualtrics groups before the choices read as more of the question's text.
 */
export type ImportNote = 'numberedAnswers' | 'restartedNumbers' | 'groupsAsText';

export type ImportResult =
  | {
      ok: true;
      format: 'list' | 'qualtrics';
      blocks: ImportedBlock[];
      count: number;
      notes: ImportNote[];
    }
  | { ok: false; format: 'list' | 'qualtrics'; line: number; reason: ImportErrorReason };

/** The most text one paste may hold (a few thousand questions). */
export const IMPORT_MAX_CHARS = 500_000;

class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly reason: ImportErrorReason,
  ) {
    super(reason);
  }
}

interface Line {
  no: number;
  text: string;
}

/** Any line that is one "[[…]]" tag marks the Qualtrics format (its unknown tags are then refused by name). */
const QUALTRICS_TAG = /^\s*\[\[[^[\]]+\]\]\s*$/;

export function importQuestions(input: string): ImportResult {
  const lines = input
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((text, i) => ({ no: i + 1, text: text.replace(/\s+$/, '') }));
  const format = lines.some((l) => QUALTRICS_TAG.test(l.text)) ? 'qualtrics' : 'list';
  try {
    if (input.length > IMPORT_MAX_CHARS) throw new ImportError(1, 'tooLong');
    if (lines.every((l) => l.text.trim() === '')) throw new ImportError(1, 'empty');
    const notes = new Set<ImportNote>();
    const blocks = format === 'qualtrics' ? parseQualtrics(lines, notes) : parseList(lines, notes);
    const count = blocks.reduce((n, b) => n + b.questions.length, 0);
    if (count === 0) throw new ImportError(1, 'empty');
    return { ok: true, format, blocks, count, notes: [...notes] };
  } catch (err) {
    if (err instanceof ImportError) return { ok: false, format, line: err.line, reason: err.reason };
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Collecting questions, shared by both formats.

interface Pending {
  line: number;
  text: string[];
  category: QuestionCategory | null;
  multiple: boolean;
  other: boolean;
  shuffle: ShuffleMode;
  scale: { min: number; max: number; step: number } | null;
  stars: number | null;
  answers: { line: number; text: string; screening: ScreeningMode | null }[];
  statements: { line: number; text: string }[];
}

function pending(line: number, text: string): Pending {
  return {
    line,
    text: text ? [text] : [],
    category: null,
    multiple: false,
    other: false,
    shuffle: 'none',
    scale: null,
    stars: null,
    answers: [],
    statements: [],
  };
}

class Collector {
  blocks: ImportedBlock[] = [{ name: null, questions: [] }];
  current: Pending | null = null;

  openBlock(name: string) {
    this.flush();
    this.blocks.push({ name, questions: [] });
  }

  start(p: Pending) {
    this.flush();
    this.current = p;
  }

  flush() {
    const p = this.current;
    if (!p) return;
    this.current = null;
    const block = this.blocks[this.blocks.length - 1];
    if (block.questions.length >= LIMITS.questionsPerBlock) throw new ImportError(p.line, 'tooManyQuestions');
    block.questions.push(build(p));
  }

  finish(): ImportedBlock[] {
    this.flush();
    return this.blocks.filter((b) => b.questions.length > 0);
  }
}

/**
 * What questionnaires write after a question that takes several answers: "(несколько ответов)",
 * "(можно выбрать несколько вариантов)", "(отметьте все подходящие)", "(select all that apply)",
 * "(check all that apply)", "(multiple answers)". The hint stays in the text respondents read.
 */
const MULTIPLE_HINT =
  /[([]\s*[^()[\]]*(?:несколько|нескольк|все подходящ|всё подходящ|все, что подходит|select all|check all|choose all|mark all|tick all|all that apply|multiple answers?|more than one|several answers)[^()[\]]*[)\]]/i;

function build(p: Pending): Question {
  const text = p.text.join(' ').replace(/\s+/g, ' ').trim();
  if (text.length > TEXT_MAX.question) throw new ImportError(p.line, 'tooLong');
  let category: QuestionCategory =
    p.category ?? (p.statements.length > 0 ? 'matrix' : p.answers.length > 0 ? 'oneAnswer' : 'open');
  if ((p.multiple || MULTIPLE_HINT.test(text)) && category === 'oneAnswer') category = 'fewAnswers';
  const rules = CATEGORY_RULES[category];
  if (!text && p.answers.length === 0) throw new ImportError(p.line, 'emptyQuestion');
  if (!rules.answers && p.answers.length > 0) throw new ImportError(p.answers[0].line, 'answersNotAllowed');
  if (!rules.statements && p.statements.length > 0)
    throw new ImportError(p.statements[0].line, 'statementsNotAllowed');
  if (rules.statements && p.statements.length === 0) throw new ImportError(p.line, 'matrixNeedsStatements');
  if (p.answers.length > LIMITS.answersPerQuestion)
    throw new ImportError(p.answers[LIMITS.answersPerQuestion].line, 'tooManyAnswers');
  if (p.statements.length > LIMITS.statementsPerQuestion)
    throw new ImportError(p.statements[LIMITS.statementsPerQuestion].line, 'tooManyAnswers');
  for (const a of [...p.answers, ...p.statements])
    if (a.text.length > TEXT_MAX.answer) throw new ImportError(a.line, 'tooLong');
  const q = newQuestion({ text, category });
  return {
    ...q,
    answers: p.answers.map((a) =>
      newAnswer({ text: a.text, screening: rules.screening ? (a.screening ?? 'allow') : null }),
    ),
    statements: p.statements.map((s) => newStatement({ text: s.text })),
    other: p.other && rules.other ? '' : null,
    shuffle: rules.shuffle ? p.shuffle : 'none',
    scale: p.scale && (rules.scale === 'range' || rules.scale === 'slider') ? p.scale : q.scale,
    stars: p.stars !== null && rules.stars ? p.stars : q.stars,
  };
}

// ---------------------------------------------------------------------------------------------
// Our list format.

const NUMBERED = /^\s*(\d{1,4})([.)])\s*(.*)$/;
/** List bullets as Word, Google Docs and plain text paste them: "-", "•", "●", "○", "◦", "▪", "☐", Word's Symbol-font bullets, "o" + tab, "a)", "б." */
const BULLET = /^\s*(?:[-*•–—]\s+|[●○◦▪■□☐◯❍·\uF0A7\uF0B7\uF0D8\uF0FC]\s*|o\t\s*|[a-zа-яё][.)]\s+)/i;
const MARKER = /\[([^[\]]+)\]\s*$/;

const CATEGORY_MARKERS: Record<string, QuestionCategory> = {
  one: 'oneAnswer',
  single: 'oneAnswer',
  один: 'oneAnswer',
  many: 'fewAnswers',
  multiple: 'fewAnswers',
  несколько: 'fewAnswers',
  screening: 'screening',
  скрининг: 'screening',
  qualification: 'qualification',
  квалификация: 'qualification',
  range: 'fromTo',
  'от-до': 'fromTo',
  open: 'open',
  открытый: 'open',
  stars: 'starRating',
  звёзды: 'starRating',
  звезды: 'starRating',
  slider: 'slider',
  слайдер: 'slider',
  nps: 'nps',
  rank: 'sortable',
  ranking: 'sortable',
  ранжирование: 'sortable',
  matrix: 'matrix',
  матрица: 'matrix',
  region: 'regionAuto',
  регион: 'regionAuto',
  city: 'cityAuto',
  город: 'cityAuto',
};
const SCREENING_MARKERS: Record<string, ScreeningMode> = {
  allow: 'allow',
  допустить: 'allow',
  deny: 'deny',
  отказ: 'deny',
  any: 'allowIfAny',
  'хотя бы один': 'allowIfAny',
};

/** Applies one "[…]" marker to the question; throws at `line` when it is not one we know. */
function applyMarker(p: Pending, marker: string, line: number) {
  const words = marker.trim().toLowerCase().split(/\s+/);
  const [head, ...rest] = words;
  if (head === 'other' || head === 'другое') return void (p.other = true);
  if (head === 'shuffle' || head === 'перемешать') return void (p.shuffle = 'shuffle');
  const category = CATEGORY_MARKERS[head];
  if (!category) throw new ImportError(line, 'unknownMarker');
  p.category = category;
  const args = rest.join(' ');
  if (category === 'fromTo' || category === 'slider') {
    if (!args) return;
    // "1-10", "0 - 100 step 5", "0-100 шаг 5"
    const m =
      /^(-?\d+(?:[.,]\d+)?)\s*[-–…]\s*(-?\d+(?:[.,]\d+)?)(?:\s+(?:step|шаг)\s+(\d+(?:[.,]\d+)?))?$/.exec(
        args,
      );
    if (!m) throw new ImportError(line, 'badScale');
    const n = (s: string) => Number(s.replace(',', '.'));
    const scale = { min: n(m[1]), max: n(m[2]), step: m[3] ? n(m[3]) : 1 };
    if (
      scale.min >= scale.max ||
      scale.step <= 0 ||
      (category === 'fromTo' && (m[3] || !Number.isInteger(scale.min) || !Number.isInteger(scale.max)))
    ) {
      throw new ImportError(line, 'badScale');
    }
    p.scale = scale;
  } else if (category === 'starRating') {
    if (!args) return;
    const count = Number(args);
    if (!Number.isInteger(count) || count < LIMITS.starsMin || count > LIMITS.starsMax)
      throw new ImportError(line, 'badStars');
    p.stars = count;
  } else if (args) throw new ImportError(line, 'unknownMarker');
}

/** Takes the markers off the end of a line: "Text [many] [other]" → "Text", applied to p. */
function stripMarkers(p: Pending, text: string, line: number): string {
  let rest = text;
  for (let m = MARKER.exec(rest); m; m = MARKER.exec(rest)) {
    applyMarker(p, m[1], line);
    rest = rest.slice(0, m.index).trimEnd();
  }
  return rest;
}

interface Numbered {
  no: number;
  n: number;
  style: string;
  body: string;
}

/**
 * Which numbered lines are questions and which are answers. One sequence (1, 2, 3…) is a list of
 * questions. Two styles where the second restarts under each question ("1." questions with "1)"
 * answers, the commonest layout of Russian questionnaires) make the second the answers; so does one
 * style that restarts at 1 under each question. Null when no line is numbered.
 */
function numberedRoles(lines: Line[], notes: Set<ImportNote>): Map<number, 'question' | 'answer'> | null {
  const items: Numbered[] = [];
  for (const l of lines) {
    if (/^\s*#/.test(l.text)) continue;
    const m = NUMBERED.exec(l.text);
    if (m) items.push({ no: l.no, n: Number(m[1]), style: m[2], body: m[3] });
  }
  if (items.length === 0) return null;
  const roles = new Map<number, 'question' | 'answer'>();

  const questionStyle = items[0].style;
  if (items.some((i) => i.style !== questionStyle)) {
    let expected = 0;
    let nested = true;
    for (const i of items) {
      if (i.style === questionStyle) expected = 1;
      else if (expected === 0 || i.n !== expected++) nested = false;
    }
    if (nested) {
      for (const i of items) roles.set(i.no, i.style === questionStyle ? 'question' : 'answer');
      notes.add('numberedAnswers');
      return roles;
    }
  }

  const restarts = items.some((i, k) => k > 0 && i.n <= items[k - 1].n);
  if (restarts) {
    // Questions count 1, 2, 3…; under each, answers count from 1 again. A number that could be
    // either is a question when the numbering restarts right after it.
    let q = 0;
    let a = 0;
    const nested = new Map<number, 'question' | 'answer'>();
    for (const [k, i] of items.entries()) {
      const canQuestion = i.n === q + 1;
      const canAnswer = q > 0 && i.n === a + 1;
      const next = items[k + 1]?.n;
      const role = canQuestion && (!canAnswer || next === 1) ? 'question' : canAnswer ? 'answer' : null;
      if (!role) return allQuestions(items);
      nested.set(i.no, role);
      if (role === 'question') {
        q++;
        a = 0;
      } else a++;
    }
    notes.add('restartedNumbers');
    return nested;
  }
  return allQuestions(items);
}

function allQuestions(items: Numbered[]) {
  return new Map(items.map((i) => [i.no, 'question' as const]));
}

function parseList(lines: Line[], notes: Set<ImportNote>): ImportedBlock[] {
  const out = new Collector();
  const roles = numberedRoles(lines, notes);
  let afterBlank = true;

  for (const { no, text } of lines) {
    const trimmed = text.trim();
    if (trimmed === '') {
      afterBlank = true;
      continue;
    }
    const wasBlank = afterBlank;
    afterBlank = false;
    if (trimmed.startsWith('#')) {
      out.openBlock(trimmed.replace(/^#+\s*/, '').slice(0, TEXT_MAX.name));
      continue;
    }
    const role = roles?.get(no);
    const startsQuestion = roles ? role === 'question' : wasBlank || !out.current;
    if (startsQuestion) {
      const p = pending(no, '');
      const body = roles ? NUMBERED.exec(trimmed)![3] : trimmed;
      p.text = [stripMarkers(p, body, no)];
      out.start(p);
      continue;
    }
    const p = out.current;
    if (!p) throw new ImportError(no, 'textBeforeFirstQuestion');
    // A line that is only a marker right after the question belongs to the question.
    if (/^\[[^[\]]+\]$/.test(trimmed) && p.answers.length === 0 && p.statements.length === 0) {
      applyMarker(p, trimmed.slice(1, -1), no);
      continue;
    }
    if (trimmed.startsWith('>')) {
      p.statements.push({ line: no, text: trimmed.replace(/^>\s*/, '') });
      continue;
    }
    let answer = role === 'answer' ? NUMBERED.exec(trimmed)![3] : trimmed.replace(BULLET, '');
    let screening: ScreeningMode | null = null;
    const m = MARKER.exec(answer);
    if (m && SCREENING_MARKERS[m[1].trim().toLowerCase()]) {
      screening = SCREENING_MARKERS[m[1].trim().toLowerCase()];
      answer = answer.slice(0, m.index).trimEnd();
    }
    p.answers.push({ line: no, text: answer, screening });
  }
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// Qualtrics Simple TXT (and the [[Question:…]] headers of its Advanced format).

const isSentence = (l: Line) => /[.!?:…]["»”)]?$/.test(l.text.trim()) && l.text.trim().length > 40;

/** Every line of the group ends a long sentence. */
const isProse = (group: Line[]) => group.every(isSentence);

/** A group of lines that reads as a paragraph, not a list of choices: one line, or mostly sentences. */
function looksLikeParagraph(group: Line[]): boolean {
  if (group.length === 1) return true;
  return group.filter(isSentence).length >= group.length / 2;
}

const QUALTRICS_TYPES: Record<string, QuestionCategory> = {
  mc: 'oneAnswer',
  te: 'open',
  matrix: 'matrix',
  ro: 'sortable',
  slider: 'slider',
  nps: 'nps',
};

function qualtricsCategory(spec: string, line: number): { category: QuestionCategory; multiple: boolean } {
  const parts = spec.split(':').map((s) => s.trim().toLowerCase());
  const sub = parts.slice(1);
  if (parts[0] === 'mc' && sub.includes('nps')) return { category: 'nps', multiple: false };
  const category = QUALTRICS_TYPES[parts[0]];
  if (!category) throw new ImportError(line, 'unsupportedType');
  return { category, multiple: sub.includes('multipleanswer') || sub.includes('multiselect') };
}

function parseQualtrics(lines: Line[], notes: Set<ImportNote>): ImportedBlock[] {
  const out = new Collector();
  // Which list the next lines feed: the question text, then groups of choices separated by blank lines.
  let mode: 'text' | 'groups' | 'choices' | 'answers' | null = null;
  let groups: Line[][] = [];
  let explicit = false;

  const close = () => {
    const p = out.current;
    if (!p) return;
    if (!explicit) {
      let filled = groups.filter((g) => g.length > 0);
      // As Qualtrics reads it: the groups before the choices are more of the question's text. The
      // choices are the last two groups (a matrix) when the one before the last is a list, or the
      // last one alone when that one reads as a paragraph. Two groups are a matrix unless the first
      // is plainly prose (a one-row matrix is a real thing; a 40-character sentence is not a row).
      const before = filled[filled.length - 2];
      if (filled.length > 2 || (filled.length === 2 && isProse(before))) {
        const choices = looksLikeParagraph(before) ? 1 : 2;
        for (const g of filled.slice(0, -choices)) p.text.push(g.map((l) => l.text.trim()).join(' '));
        filled = filled.slice(-choices);
        notes.add('groupsAsText');
      }
      // One group: the choices. Two groups: a matrix, the choices are its rows and the answers its columns.
      if (filled.length === 2) {
        p.category = 'matrix';
        p.statements = filled[0].map((l) => ({ line: l.no, text: l.text.trim() }));
        p.answers = filled[1].map((l) => ({ line: l.no, text: l.text.trim(), screening: null }));
      } else if (filled.length === 1) {
        p.answers = filled[0].map((l) => ({ line: l.no, text: l.text.trim(), screening: null }));
      }
    }
    out.flush();
    groups = [];
    mode = null;
  };

  for (const line of lines) {
    const { no, text } = line;
    const trimmed = text.trim();
    const tag = /^\[\[\s*([^\]]*?)\s*\]\]$/.exec(trimmed);
    if (tag) {
      const [name, ...rest] = tag[1].split(':');
      const arg = rest.join(':').trim();
      switch (name.trim().toLowerCase()) {
        case 'advancedformat':
        case 'simpleformat':
        case 'pagebreak':
        case 'id':
          continue;
        case 'block':
          close();
          out.openBlock(arg.slice(0, TEXT_MAX.name));
          continue;
        case 'multipleanswer':
          if (!out.current) throw new ImportError(no, 'textBeforeFirstQuestion');
          out.current.multiple = true;
          continue;
        case 'question': {
          close();
          const { category, multiple } = qualtricsCategory(arg, no);
          const p = pending(no, '');
          p.category = category;
          p.multiple = multiple;
          out.start(p);
          explicit = true;
          mode = 'text';
          continue;
        }
        case 'choices':
        case 'advancedchoices':
          if (!out.current || !explicit) throw new ImportError(no, 'unsupportedTag');
          mode = 'choices';
          continue;
        case 'answers':
        case 'advancedanswers':
          if (!out.current || !explicit) throw new ImportError(no, 'unsupportedTag');
          mode = 'answers';
          continue;
        default:
          throw new ImportError(no, 'unsupportedTag');
      }
    }

    const num = /^\s*\d+\.\s*(.*)$/.exec(text);
    if (num && !explicit) {
      close();
      out.start(pending(no, num[1].trim()));
      explicit = false;
      mode = 'text';
      continue;
    }
    if (trimmed === '') {
      if (mode === 'text' && !explicit && out.current) {
        mode = 'groups';
        groups = [[]];
      } else if (mode === 'groups' && groups[groups.length - 1].length > 0) groups.push([]);
      continue;
    }
    const p = out.current;
    if (!p) throw new ImportError(no, 'textBeforeFirstQuestion');
    if (explicit) {
      if (mode === 'text') p.text.push(trimmed);
      else if (mode === 'choices') {
        // A matrix's choices are its rows.
        if (p.category === 'matrix') p.statements.push({ line: no, text: trimmed });
        else p.answers.push({ line: no, text: trimmed, screening: null });
      } else if (mode === 'answers') {
        if (p.category !== 'matrix') throw new ImportError(no, 'unsupportedTag');
        p.answers.push({ line: no, text: trimmed, screening: null });
      }
      continue;
    }
    if (mode === 'text') p.text.push(trimmed);
    else groups[groups.length - 1].push(line);
  }
  close();
  return out.finish();
}

// Filling one language's texts of an existing questionnaire from a list, by position (issue 32).
export { planFill, type FillPlan, type FillRow, type FillMismatch } from './importInto';
