import type { ProjectContent } from './model';

// The content seen as a flat table of items keyed by id, each with its own fields (children
// excluded) and the list it sits in. Three-way merge and version diffs compare items by key here,
// so a move or a reorder is a change of `list`/position, never a delete plus an add.

export type ItemKind = 'questionnaire' | 'block' | 'question' | 'answer' | 'statement' | 'portrait';

export interface FlatItem {
  key: string;
  kind: ItemKind;
  id: string;
  /** The list that holds it: `<owner key>|<list name>`, or `|questionnaires` / `|portraits` (owner ROOT). */
  list: string;
  /**
   * The item itself: its own fields, and (for questionnaires, blocks and questions) its child lists,
   * which comparisons skip (NOT_FIELDS). Not copied, so a flatten costs no allocation per item.
   */
  fields: Record<string, unknown>;
}

export interface FlatContent {
  items: Map<string, FlatItem>;
  /** List key → item keys in order. */
  lists: Map<string, string[]>;
}

/** Keys of an item that are not its own fields: its id and its child lists. */
export const NOT_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'blocks',
  'questions',
  'answers',
  'statements',
]);

/** The owner of the top lists: '' (an id has at least one character, so it is never an item's key). */
export const ROOT = '';
export const ROOT_QUESTIONNAIRES = '|questionnaires';
export const ROOT_PORTRAITS = '|portraits';

/**
 * An item's key is its id: ids are unique in a content (the rules refuse duplicates), and the id's
 * own string is far cheaper as a map key than a built one (the merge looks items up many thousand
 * times). An id met twice (another kind, or an answer id reused in another question) gets a key
 * that names its kind and owner, so nothing is lost.
 */
const fallbackKey = (kind: ItemKind, id: string, owner: string): string => `${kind}:${owner}:${id}`;

/** The item that owns a list (ROOT for the top lists). */
export const ownerOf = (list: string): string => list.slice(0, list.lastIndexOf('|'));

export function flatten(content: ProjectContent): FlatContent {
  const items = new Map<string, FlatItem>();
  const lists = new Map<string, string[]>();
  const open = (list: string) => {
    let l = lists.get(list);
    if (!l) lists.set(list, (l = []));
    return l;
  };
  const put = (
    into: string[],
    kind: ItemKind,
    id: string,
    list: string,
    fields: Record<string, unknown>,
  ): string | null => {
    let key = id;
    if (items.has(key)) {
      key = fallbackKey(kind, id, ownerOf(list));
      // The same id twice in one list (the rules refuse it): the first one counts.
      if (items.has(key)) return null;
    }
    items.set(key, { key, kind, id, list, fields });
    into.push(key);
    return key;
  };
  const roots = open(ROOT_QUESTIONNAIRES);
  for (const qn of content.questionnaires) {
    const qnKey = put(roots, 'questionnaire', qn.id, ROOT_QUESTIONNAIRES, qn);
    if (qnKey === null) continue;
    const blocksList = `${qnKey}|blocks`;
    const blocks = open(blocksList);
    for (const b of qn.blocks) {
      const questions = b.questions;
      const bKey = put(blocks, 'block', b.id, blocksList, b);
      if (bKey === null) continue;
      const questionsList = `${bKey}|questions`;
      const qs = open(questionsList);
      for (const q of questions) {
        const { answers, statements } = q;
        const qKey = put(qs, 'question', q.id, questionsList, q);
        if (qKey === null) continue;
        const answersList = `${qKey}|answers`;
        const as: string[] = [];
        lists.set(answersList, as);
        for (const a of answers) put(as, 'answer', a.id, answersList, a);
        const statementsList = `${qKey}|statements`;
        const ss: string[] = [];
        lists.set(statementsList, ss);
        for (const x of statements) put(ss, 'statement', x.id, statementsList, x);
      }
    }
  }
  const portraits = open(ROOT_PORTRAITS);
  for (const p of content.portraits) put(portraits, 'portrait', p.id, ROOT_PORTRAITS, p);
  return { items, lists };
}

/** Builds content back from items and ordered lists (lists whose owner is missing are dropped). */
export function unflatten(flat: FlatContent): ProjectContent {
  const listOf = (key: string) => flat.lists.get(key) ?? [];
  const item = (key: string) => flat.items.get(key)!;
  const own = (key: string) => ({ ...item(key).fields, id: item(key).id });
  return {
    questionnaires: listOf(ROOT_QUESTIONNAIRES).map((qnKey) => ({
      ...own(qnKey),
      blocks: listOf(`${qnKey}|blocks`).map((bKey) => ({
        ...own(bKey),
        questions: listOf(`${bKey}|questions`).map((qKey) => ({
          ...own(qKey),
          answers: listOf(`${qKey}|answers`).map(own),
          statements: listOf(`${qKey}|statements`).map(own),
        })),
      })),
    })),
    portraits: listOf(ROOT_PORTRAITS).map(own),
  } as unknown as ProjectContent;
}

/**
 * The field that holds an item's texts in the other languages (issue 32). Each language's text is a
 * field of its own, `translations.<code>.<field>` ('translations.en.text'), so two people
 * translating different languages never touch the same field: the merge, the diffs and the
 * history all see those dotted fields, never the `translations` object whole.
 */
export const TRANSLATIONS = 'translations';
const TRANSLATION_PREFIX = `${TRANSLATIONS}.`;
export const isTranslationField = (name: string) => name.startsWith(TRANSLATION_PREFIX);

/** An item's translations as dotted fields: { 'translations.en.text': 'Hello', … } (blank ones kept). */
export function translationFields(translations: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!translations || typeof translations !== 'object') return out;
  for (const code in translations) {
    const texts = (translations as Record<string, unknown>)[code];
    if (!texts || typeof texts !== 'object') continue;
    for (const f in texts) {
      const value = (texts as Record<string, unknown>)[f];
      if (typeof value === 'string') out[`${TRANSLATION_PREFIX}${code}.${f}`] = value;
    }
  }
  return out;
}

/** The translations object back from dotted fields (undefined values left out); undefined when none is left. */
export function translationsOf(
  fields: Record<string, unknown>,
): Record<string, Record<string, string>> | undefined {
  let out: Record<string, Record<string, string>> | undefined;
  for (const name in fields) {
    const value = fields[name];
    if (typeof value !== 'string' || !isTranslationField(name)) continue;
    const rest = name.slice(TRANSLATION_PREFIX.length);
    const dot = rest.indexOf('.');
    const code = rest.slice(0, dot);
    out ??= {};
    (out[code] ??= {})[rest.slice(dot + 1)] = value;
  }
  return out;
}

/** An item's own fields, without its id and child lists (for showing and storing); translations as dotted fields. */
export function ownFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n in fields) {
    if (NOT_FIELDS.has(n)) continue;
    if (n === TRANSLATIONS) Object.assign(out, translationFields(fields[n]));
    else out[n] = fields[n];
  }
  return out;
}

/** Structural equality of JSON-like values (field order ignored). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka)
    if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** Field names whose values differ between two items (each language's text by its dotted name). */
export function changedFields(a: FlatItem, b: FlatItem): string[] {
  const out: string[] = [];
  const isOwn = (n: string) => !NOT_FIELDS.has(n) && n !== TRANSLATIONS;
  for (const n in a.fields) if (isOwn(n) && !same(a.fields[n], b.fields[n])) out.push(n);
  for (const n in b.fields) if (isOwn(n) && !(n in a.fields)) out.push(n);
  const ta = a.fields[TRANSLATIONS];
  const tb = b.fields[TRANSLATIONS];
  if (ta !== tb && !same(ta, tb)) out.push(...changedTranslations(ta, tb));
  return out;
}

/** The dotted translation fields whose texts differ (one absent on a side counts as changed). */
export function changedTranslations(a: unknown, b: unknown): string[] {
  const fa = translationFields(a);
  const fb = translationFields(b);
  const out: string[] = [];
  for (const n in fa) if (fa[n] !== fb[n]) out.push(n);
  for (const n in fb) if (!(n in fa)) out.push(n);
  return out;
}

/** Whether two lists hold the same keys in the same order. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Keys of `a` that keep their relative order in `b` (a longest common subsequence of the keys both
 * hold); the others were moved. Lists are at most a few hundred items, so O(n·m) is fine, and the
 * common case (same order) returns at once.
 */
export function stableKeys(a: readonly string[], b: readonly string[]): Set<string> {
  const inB = new Set(b);
  const inA = new Set(a);
  const x = a.filter((k) => inB.has(k));
  const y = b.filter((k) => inA.has(k));
  if (x.length === y.length && x.every((k, i) => k === y[i])) return new Set(x);
  const n = x.length;
  const m = y.length;
  const dp = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i * (m + 1) + j] =
        x[i] === y[j]
          ? dp[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(dp[(i + 1) * (m + 1) + j], dp[i * (m + 1) + j + 1]);
  const out = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.add(x[i]);
      i++;
      j++;
    } else if (dp[(i + 1) * (m + 1) + j] >= dp[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  return out;
}

/** A short human label of an item (its text or name). */
export function labelOf(item: FlatItem | undefined): string {
  if (!item) return '';
  const f = item.fields as { text?: unknown; name?: unknown };
  const s = typeof f.text === 'string' ? f.text : typeof f.name === 'string' ? f.name : '';
  return s;
}
