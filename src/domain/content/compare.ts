import type { ProjectContent } from './model';
import { diffFlat, type ItemChange } from './diff';
import { flatten, isTranslationField, labelOf, ownerOf, type FlatContent, type ItemKind } from './flat';

// What the history panel's "Compare" shows (issue #26): for each item that differs between a saved
// version and the content on screen, each changed field's value then and now. Texts come as a word
// diff (the changed words marked), a question's answers and statements added or removed come by name
// under the question, other fields (numbers, settings) as before → after. Pure: the panel renders it.
//
// The word diff is a plain longest common subsequence over words and spaces, not a library: texts are
// bounded (TEXT_MAX: 2 000 characters, a few hundred words), so O(n·m) is a few thousand steps, and
// the editor's chunk stays as it is (docs/decisions/editor.md).

export interface WordPart {
  op: 'same' | 'removed' | 'added';
  text: string;
}

export type FieldCompare =
  | { field: string; type: 'words'; parts: WordPart[] }
  | { field: string; type: 'value'; before: unknown; after: unknown };

export interface NamedItem {
  kind: 'answer' | 'statement';
  label: string;
}

export interface CompareEntry {
  key: string;
  kind: ItemKind;
  change: ItemChange;
  /** The item's text or name (the newer side's, or the removed item's). */
  label: string;
  /** Its changed fields ('changed' only), each then → now. */
  fields: FieldCompare[];
  /** A question's answers and statements that only the newer side has, and only the older. */
  added: NamedItem[];
  removed: NamedItem[];
}

/**
 * Fields shown as a word diff (a translation's too: 'translations.en.text' and the other texts of a
 * language); every other field is a value shown before → after.
 */
const WORD_FIELDS: ReadonlySet<string> = new Set(['text', 'name']);
const isWordField = (field: string) => WORD_FIELDS.has(field) || isTranslationField(field);

/** Past this many token pairs the text is shown as replaced whole (never reached within TEXT_MAX). */
const MAX_CELLS = 1_000_000;

/** Words (letters, digits, inner apostrophes and hyphens), runs of spaces, and each other sign alone. */
const tokens = (s: string): string[] =>
  s.match(/\s+|[\p{L}\p{N}\p{M}_]+(?:['’-][\p{L}\p{N}\p{M}_]+)*|[^\s]/gu) ?? [];

/**
 * The words of `before` and `after`, each marked kept, removed or added. Within a run of changes the
 * removed words come first, then the added ones, and the spaces between changed words go with them,
 * so "the big red dog" → "the small blue dog" reads [the ][-big red-][+small blue+][ dog].
 */
export function wordDiff(before: string, after: string): WordPart[] {
  const a = tokens(before);
  const b = tokens(after);
  const n = a.length;
  const m = b.length;
  type Op = { op: WordPart['op']; text: string };
  const ops: Op[] = [];
  if (n * m > MAX_CELLS) {
    if (before) ops.push({ op: 'removed', text: before });
    if (after) ops.push({ op: 'added', text: after });
  } else {
    const w = m + 1;
    const dp = new Uint16Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        dp[i * w + j] =
          a[i] === b[j] ? dp[(i + 1) * w + j + 1] + 1 : Math.max(dp[(i + 1) * w + j], dp[i * w + j + 1]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) {
        ops.push({ op: 'same', text: a[i] });
        i++;
        j++;
      } else if (j >= m || (i < n && dp[(i + 1) * w + j] >= dp[i * w + j + 1]))
        ops.push({ op: 'removed', text: a[i++] });
      else ops.push({ op: 'added', text: b[j++] });
    }
  }
  // Runs of changes, with the kept spaces between two changed words taken into both sides.
  const out: WordPart[] = [];
  const push = (op: WordPart['op'], text: string) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  let k = 0;
  while (k < ops.length) {
    if (ops[k].op === 'same') {
      push('same', ops[k++].text);
      continue;
    }
    let removed = '';
    let added = '';
    while (k < ops.length) {
      const o = ops[k];
      if (o.op === 'removed') removed += o.text;
      else if (o.op === 'added') added += o.text;
      else if (/^\s+$/.test(o.text) && k + 1 < ops.length && ops[k + 1].op !== 'same') {
        removed += o.text;
        added += o.text;
      } else break;
      k++;
    }
    push('removed', removed);
    push('added', added);
  }
  return out;
}

function fieldCompare(field: string, before: unknown, after: unknown): FieldCompare {
  const text = (x: unknown) => x === undefined || x === null || typeof x === 'string';
  if (isWordField(field) && text(before) && text(after))
    return { field, type: 'words', parts: wordDiff((before as string) ?? '', (after as string) ?? '') };
  return { field, type: 'value', before: before ?? null, after: after ?? null };
}

export function compareContent(before: ProjectContent, after: ProjectContent): CompareEntry[] {
  return compareFlat(flatten(before), flatten(after));
}

export function compareFlat(before: FlatContent, after: FlatContent): CompareEntry[] {
  const out: CompareEntry[] = [];
  /** The 'changed' entry of each question, where its answers added and removed are listed. */
  const changedQuestions = new Map<string, CompareEntry>();
  const questionEntry = (key: string): CompareEntry => {
    let e = changedQuestions.get(key);
    if (!e) {
      const item = after.items.get(key) ?? before.items.get(key);
      e = {
        key,
        kind: 'question',
        change: 'changed',
        label: labelOf(item),
        fields: [],
        added: [],
        removed: [],
      };
      changedQuestions.set(key, e);
      out.push(e);
    }
    return e;
  };
  for (const d of diffFlat(before, after)) {
    if ((d.kind === 'answer' || d.kind === 'statement') && (d.change === 'added' || d.change === 'removed')) {
      // An answer added or removed is a change of its question (the question itself is on both sides:
      // answers of an added or removed question are not listed apart).
      const side = d.change === 'added' ? after : before;
      const owner = ownerOf(side.items.get(d.key)!.list);
      questionEntry(owner)[d.change].push({ kind: d.kind, label: d.label });
      continue;
    }
    const fields =
      d.change === 'changed' ? d.fields.map((f) => fieldCompare(f, d.before?.[f], d.after?.[f])) : [];
    if (d.kind === 'question' && d.change === 'changed') {
      const e = questionEntry(d.key);
      e.fields = fields;
      e.label = d.label;
      continue;
    }
    out.push({ key: d.key, kind: d.kind, change: d.change, label: d.label, fields, added: [], removed: [] });
  }
  return out;
}
