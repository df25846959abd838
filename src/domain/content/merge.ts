import { contentLanguages } from './languages';
import type { ProjectContent } from './model';
import type { Problem } from './problems';
import { redirectProblems } from './redirects';
import { build } from './merge-order';
import {
  changedFields,
  flatten,
  labelOf,
  NOT_FIELDS,
  ownFields,
  ownerOf,
  ROOT,
  same,
  sameList,
  translationFields,
  translationsOf,
  TRANSLATIONS,
  isTranslationField,
  unflatten,
  type FlatContent,
  type FlatItem,
  type ItemKind,
} from './flat';

// Three-way merge of project content by item id (DESIGN.md section 6, issue #16): the version both
// sides started from (base), the local draft (mine) and the server's newer version (theirs).
//
// Why state, not a replay of commands: the change-log in Dexie keeps codes and labels, not the
// commands, and a drafted offline hour may have been reloaded many times; the three states are
// always at hand (base from the version history) and give the same answer a replay would, item by
// item. Rules:
// - a field changed on one side only takes that side's value; changed on both to the same value
//   is no conflict; changed on both to different values is a conflict of that item;
// - an item deleted on one side and left alone (with everything in it) on the other is deleted;
//   deleted on one side and changed (or added to) on the other is a conflict of the topmost item
//   deleted, so the choice keeps or drops it whole;
// - moves and reorders merge by id: items whose order is kept by both sides keep it, an item moved
//   or added by one side goes after the item it follows on that side; moved by both to different
//   places is a conflict;
// - an unresolved conflict keeps mine (the user's own screen does not change under them), and the
//   result is computed again with the user's choices (`choices`), so choosing is just merging.

export type Side = 'mine' | 'theirs';

export type ConflictReason = 'changed' | 'deletedByMine' | 'deletedByTheirs';

export interface MergeConflict {
  key: string;
  kind: ItemKind;
  id: string;
  reason: ConflictReason;
  /** Fields changed differently on both sides ('place' for a move, 'position' for a reorder). */
  fields: string[];
  /** The item's fields on each side (null where it is deleted), for showing side by side. */
  base: Record<string, unknown> | null;
  mine: Record<string, unknown> | null;
  theirs: Record<string, unknown> | null;
  /** The item's text or name on the side that has it. */
  label: string;
  /** Items whose fate this choice decides too (inside a deleted item). */
  inside: string[];
}

export interface MergeResult {
  content: ProjectContent;
  conflicts: MergeConflict[];
  /** Redirect problems the merged content has that neither side had. */
  broken: Problem[];
}

export type Choices = Readonly<Record<string, Side>>;

export interface Decision {
  item: FlatItem | null;
  /** Which side's position (order in the list) the item takes, when only one side moved it. */
  positionFrom: Side | null;
}

const BY_SIDE = { mine: 0, theirs: 1 } as const;

/** Whether the side changed the item (fields or list) or anything it holds, or added something in it. */
function touched(side: FlatContent, base: FlatContent, key: string, memo: Map<string, boolean>): boolean {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const now = side.items.get(key)!;
  const was = base.items.get(key);
  let result = !was || now.list !== was.list || changedFields(was, now).length > 0;
  // Something added, moved in or reordered inside counts; a removal alone agrees with a deletion.
  if (!result)
    result = listsOwnedBy(side, key).some(
      ([list, keys]) =>
        !sameOrder(keys, base.lists.get(list) ?? []) || keys.some((k) => touched(side, base, k, memo)),
    );
  memo.set(key, result);
  return result;
}

function sameOrder(a: string[], b: string[]): boolean {
  const inA = new Set(a);
  const kept = b.filter((k) => inA.has(k));
  return kept.length === a.length && kept.every((k, i) => k === a[i]);
}

const CHILD_LISTS: Record<ItemKind, string[]> = {
  questionnaire: ['blocks'],
  block: ['questions'],
  question: ['answers', 'statements'],
  answer: [],
  statement: [],
  portrait: [],
};

function listsOwnedBy(flat: FlatContent, key: string): [string, string[]][] {
  const kind = flat.items.get(key)?.kind;
  if (!kind) return [];
  return CHILD_LISTS[kind].map((n) => [`${key}|${n}`, flat.lists.get(`${key}|${n}`) ?? []]);
}

/** Every key inside an item on one side, depth first. */
function descendants(flat: FlatContent, key: string, into: string[] = []): string[] {
  for (const [, keys] of listsOwnedBy(flat, key))
    for (const k of keys) {
      into.push(k);
      descendants(flat, k, into);
    }
  return into;
}

function mergeFields(
  base: FlatItem | undefined,
  mine: FlatItem,
  theirs: FlatItem,
): { fields: Record<string, unknown>; clashes: string[] } {
  const fields: Record<string, unknown> = {};
  const clashes: string[] = [];
  const names = Object.keys(mine.fields);
  for (const n in theirs.fields) if (!(n in mine.fields)) names.push(n);
  for (const n of names) {
    if (NOT_FIELDS.has(n) || n === TRANSLATIONS) continue;
    const m = mine.fields[n];
    const t = theirs.fields[n];
    if (same(m, t)) fields[n] = m;
    else if (base && same(base.fields[n], m)) fields[n] = t;
    else if (base && same(base.fields[n], t)) fields[n] = m;
    else {
      clashes.push(n);
      fields[n] = m;
    }
  }
  mergeTranslations(base, mine, theirs, fields, clashes);
  return { fields, clashes };
}

/**
 * The texts in other languages, each `translations.<code>.<field>` merged as a field of its own:
 * one person translating into English and another into German never conflict, nor do two people
 * translating different questions' texts into the same language. A clash is named by its dotted
 * field ('translations.en.text').
 */
function mergeTranslations(
  base: FlatItem | undefined,
  mine: FlatItem,
  theirs: FlatItem,
  fields: Record<string, unknown>,
  clashes: string[],
) {
  const hasM = TRANSLATIONS in mine.fields;
  const hasT = TRANSLATIONS in theirs.fields;
  if (!hasM && !hasT) return;
  const m = mine.fields[TRANSLATIONS];
  const t = theirs.fields[TRANSLATIONS];
  const b = base?.fields[TRANSLATIONS];
  // Whole when one side left them as they were (the common case: nobody translated this item).
  const whole = (side: unknown, has: boolean) => {
    if (has) fields[TRANSLATIONS] = side;
  };
  if (same(m, t)) return whole(hasM ? m : t, true);
  if (base && same(b, m)) return whole(t, hasT);
  if (base && same(b, t)) return whole(m, hasM);
  const fb = translationFields(b);
  const fm = translationFields(m);
  const ft = translationFields(t);
  const merged: Record<string, string | undefined> = {};
  const names = new Set([...Object.keys(fb), ...Object.keys(fm), ...Object.keys(ft)]);
  for (const n of names) {
    const x = fm[n];
    const y = ft[n];
    if (x === y) merged[n] = x;
    else if (base && fb[n] === x) merged[n] = y;
    else if (base && fb[n] === y) merged[n] = x;
    else {
      clashes.push(n);
      merged[n] = x;
    }
  }
  fields[TRANSLATIONS] = translationsOf(merged) ?? {};
}

/** Sets one field of a merged item to the chosen side's value (a dotted translation field inside `translations`). */
function takeField(fields: Record<string, unknown>, name: string, from: FlatItem) {
  if (!isTranslationField(name)) {
    fields[name] = from.fields[name];
    return;
  }
  const all: Record<string, string | undefined> = translationFields(fields[TRANSLATIONS]);
  all[name] = translationFields(from.fields[TRANSLATIONS])[name];
  fields[TRANSLATIONS] = translationsOf(all) ?? {};
}

export function mergeContent(
  baseContent: ProjectContent,
  mineContent: ProjectContent,
  theirsContent: ProjectContent,
  choices: Choices = {},
): MergeResult {
  const base = flatten(baseContent);
  const sides = [flatten(mineContent), flatten(theirsContent)] as const;
  const [mine, theirs] = sides;
  const decisions = new Map<string, Decision>();
  const conflicts = new Map<string, MergeConflict>();
  const memo = [new Map<string, boolean>(), new Map<string, boolean>()];
  const deletions: { key: string; by: Side }[] = [];

  const conflict = (
    key: string,
    reason: ConflictReason,
    fields: string[],
    b: FlatItem | undefined,
    m: FlatItem | undefined,
    t: FlatItem | undefined,
  ) => {
    const known = conflicts.get(key);
    if (known) {
      for (const f of fields) if (!known.fields.includes(f)) known.fields.push(f);
      return;
    }
    const any = (m ?? t ?? b)!;
    conflicts.set(key, {
      key,
      kind: any.kind,
      id: any.id,
      reason,
      fields,
      base: b ? ownFields(b.fields) : null,
      mine: m ? ownFields(m.fields) : null,
      theirs: t ? ownFields(t.fields) : null,
      label: labelOf(m ?? t ?? b),
      inside: [],
    });
  };

  const decide = (key: string) => {
    const b = base.items.get(key);
    const m = mine.items.get(key);
    const t = theirs.items.get(key);
    if (m && t) {
      let list = m.list;
      if (m.list !== t.list) {
        if (b && b.list === m.list) list = t.list;
        else if (!(b && b.list === t.list)) list = '';
      }
      // Fast path: an item one side left untouched (the editor's immer edits keep unchanged items
      // as the very same objects) takes the other side's fields without comparing them.
      if (list && b && (m.fields === b.fields || t.fields === b.fields)) {
        const other = m.fields === b.fields ? t : m;
        decisions.set(key, { item: other.list === list ? other : { ...other, list }, positionFrom: null });
        return;
      }
      const { fields, clashes } = mergeFields(b, m, t);
      if (!list) {
        list = m.list;
        clashes.push('place');
      }
      if (clashes.length) {
        conflict(key, 'changed', clashes, b, m, t);
        const pick = choices[key] === 'theirs' ? t : m;
        for (const f of clashes) if (f !== 'place') takeField(fields, f, pick);
        if (clashes.includes('place')) list = pick.list;
      }
      decisions.set(key, { item: { ...m, list, fields }, positionFrom: null });
    } else if (m || t) {
      const kept = (m ?? t)!;
      if (!b) decisions.set(key, { item: kept, positionFrom: m ? 'mine' : 'theirs' });
      else {
        // Deleted on one side: a conflict when the other side touched it, else gone.
        const by: Side = m ? 'theirs' : 'mine';
        const other = m ? mine : theirs;
        if (touched(other, base, key, memo[m ? 0 : 1])) {
          deletions.push({ key, by });
          conflict(key, by === 'mine' ? 'deletedByMine' : 'deletedByTheirs', [], b, m, t);
        }
      }
    }
  };
  for (const key of base.items.keys()) decide(key);
  for (const key of mine.items.keys()) if (!base.items.has(key)) decide(key);
  for (const key of theirs.items.keys()) if (!base.items.has(key) && !mine.items.has(key)) decide(key);

  // A deletion conflict inside another one (a changed question in a block the other side deleted)
  // is decided with it: one choice per topmost deleted item.
  for (const { key, by } of deletions) {
    const keeper = by === 'mine' ? theirs : mine;
    let owner = ownerOf(keeper.items.get(key)!.list);
    let top: string | null = null;
    while (owner !== ROOT) {
      const c = conflicts.get(owner);
      if (c && c.reason === conflicts.get(key)!.reason) top = owner;
      const it = keeper.items.get(owner);
      if (!it) break;
      owner = ownerOf(it.list);
    }
    if (top) {
      conflicts.get(top)!.inside.push(key);
      conflicts.delete(key);
    }
  }
  // Keeping a deleted item keeps it whole, as the side that kept it has it.
  for (const { key, by } of deletions) {
    const c = conflicts.get(key);
    if (!c) continue;
    const keepSide: Side = by === 'mine' ? 'theirs' : 'mine';
    const chosen = choices[key] ?? 'mine';
    if (chosen !== keepSide) continue;
    const keeper = sides[BY_SIDE[keepSide]];
    for (const k of [key, ...descendants(keeper, key)]) {
      if (!decisions.get(k)?.item) decisions.set(k, { item: keeper.items.get(k)!, positionFrom: keepSide });
    }
  }

  const content = unflatten(build(base, mine, theirs, decisions, choices, conflicts));
  const languages = mergeLanguages(baseContent, mineContent, theirsContent, content);
  if (languages) content.languages = languages;
  const broken = newRedirectProblems(content, mineContent, theirsContent);
  return {
    content,
    conflicts: [...conflicts.values()],
    broken,
  };
}

/**
 * The questionnaire's language list (issue 32), merged as a set on top of mine's order: a language
 * one side added is added, one side removed is removed, unless the merged content still has texts in
 * it (the other side translated into it meanwhile: their work is not dropped silently). The source
 * stays first. Undefined when no side names languages (content written before them stays so).
 */
function mergeLanguages(
  base: ProjectContent,
  mine: ProjectContent,
  theirs: ProjectContent,
  merged: ProjectContent,
): string[] | undefined {
  if (!mine.languages && !theirs.languages) return undefined;
  const m = contentLanguages(mine);
  const t = contentLanguages(theirs);
  if (sameList(m as string[], t as string[])) return [...m];
  const b = contentLanguages(base);
  const inUse = new Set<string>();
  for (const qn of merged.questionnaires)
    for (const bl of qn.blocks)
      for (const q of bl.questions) {
        for (const code in q.translations) inUse.add(code);
        for (const a of q.answers) for (const code in a.translations) inUse.add(code);
        for (const x of q.statements) for (const code in x.translations) inUse.add(code);
      }
  const removed = (code: string) =>
    b.includes(code) && (!m.includes(code) || !t.includes(code)) && !inUse.has(code);
  const out = m.filter((code, i) => i === 0 || !removed(code));
  for (const code of t) if (!out.includes(code) && !b.includes(code)) out.push(code);
  // A language removed on one side but still holding texts from the other comes back.
  for (const code of inUse) if (!out.includes(code) && (t.includes(code) || b.includes(code))) out.push(code);
  return out;
}

/** Redirect problems keyed by the redirect's holder (question or answer id), not by position. */
function redirectKeys(content: ProjectContent): Map<string, Problem> {
  const out = new Map<string, Problem>();
  for (const p of redirectProblems(content)) out.set(`${p.rule}@${holderOf(content, p.path)}`, p);
  return out;
}

function holderOf(content: ProjectContent, path: string): string {
  const m = /^questionnaires\.(\d+)\.blocks\.(\d+)\.questions\.(\d+)(?:\.answers\.(\d+))?/.exec(path);
  if (!m) return path;
  const q = content.questionnaires[+m[1]]?.blocks[+m[2]]?.questions[+m[3]];
  if (!q) return path;
  return m[4] === undefined ? q.id : `${q.id}/${q.answers[+m[4]]?.id}`;
}

function newRedirectProblems(merged: ProjectContent, a: ProjectContent, b: ProjectContent): Problem[] {
  const now = redirectKeys(merged);
  // The common case: nothing wrong, and no need to check the two sides.
  if (now.size === 0) return [];
  const had = new Set([...redirectKeys(a).keys(), ...redirectKeys(b).keys()]);
  return [...now].filter(([k]) => !had.has(k)).map(([, p]) => p);
}
