import { shortLabel, type ChangeCode } from './changelog';
import type { ProjectContent } from './model';
import {
  changedFields,
  flatten,
  labelOf,
  ownerOf,
  ROOT,
  ROOT_QUESTIONNAIRES,
  ownFields,
  sameList,
  stableKeys,
  type FlatContent,
  type ItemKind,
} from './flat';

// What changed between two versions of a project's content, item by item (by id), and the same in
// the change-log's words (codes 001–013). The server stores the summary with each saved version
// (the history list shows it without loading contents); the history panel shows the item diff of
// one version against the content on screen; the merge says what came in from the other side.

export type ItemChange = 'added' | 'removed' | 'changed' | 'moved';

export interface ItemDiff {
  key: string;
  kind: ItemKind;
  id: string;
  change: ItemChange;
  /** Changed fields ('changed'); empty otherwise. */
  fields: string[];
  /** The item's text or name (the newer side's, or the removed item's). */
  label: string;
  /** Its fields before and after (null where absent). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface ChangeSummary {
  code: ChangeCode;
  label: string;
}

/** Removed or added items inside an item removed or added with them are not listed separately. */
function coveredBy(flat: FlatContent, key: string, set: Set<string>): boolean {
  let owner = ownerOf(flat.items.get(key)!.list);
  while (owner !== ROOT) {
    if (set.has(owner)) return true;
    const it = flat.items.get(owner);
    if (!it) return false;
    owner = ownerOf(it.list);
  }
  return false;
}

export function diffContent(beforeContent: ProjectContent, afterContent: ProjectContent): ItemDiff[] {
  return diffFlat(flatten(beforeContent), flatten(afterContent));
}

export function diffFlat(before: FlatContent, after: FlatContent): ItemDiff[] {
  const out: ItemDiff[] = [];
  const removed = new Set([...before.items.keys()].filter((k) => !after.items.has(k)));
  const added = new Set([...after.items.keys()].filter((k) => !before.items.has(k)));
  // Moved: to another list, or out of order in the same list.
  const moved = new Set<string>();
  for (const [list, keys] of after.lists) {
    const old = before.lists.get(list) ?? [];
    if (sameList(old, keys)) continue;
    const stable = stableKeys(old, keys);
    for (const k of keys) if (before.items.has(k) && !stable.has(k)) moved.add(k);
  }
  for (const k of removed) {
    if (coveredBy(before, k, removed)) continue;
    const it = before.items.get(k)!;
    out.push({
      key: k,
      kind: it.kind,
      id: it.id,
      change: 'removed',
      fields: [],
      label: labelOf(it),
      before: ownFields(it.fields),
      after: null,
    });
  }
  for (const [k, it] of after.items) {
    if (added.has(k)) {
      if (!coveredBy(after, k, added))
        out.push({
          key: k,
          kind: it.kind,
          id: it.id,
          change: 'added',
          fields: [],
          label: labelOf(it),
          before: null,
          after: ownFields(it.fields),
        });
      continue;
    }
    const was = before.items.get(k)!;
    const fields = changedFields(was, it);
    if (fields.length)
      out.push({
        key: k,
        kind: it.kind,
        id: it.id,
        change: 'changed',
        fields,
        label: labelOf(it),
        before: ownFields(was.fields),
        after: ownFields(it.fields),
      });
    if (moved.has(k))
      out.push({
        key: k,
        kind: it.kind,
        id: it.id,
        change: 'moved',
        fields: [],
        label: labelOf(it),
        before: ownFields(was.fields),
        after: ownFields(it.fields),
      });
  }
  return out;
}

/** The question an answer or statement belongs to, for the 008 "question changed" label. */
function questionOf(flat: FlatContent, key: string): string {
  return ownerOf(flat.items.get(key)?.list ?? ROOT_QUESTIONNAIRES);
}

/**
 * The change-log rows a change from `before` to `after` would have written: one per item, in the
 * codes of spec section 3 (a question's answers and statements count as the question changed).
 */
export function summarizeChanges(
  beforeContent: ProjectContent,
  afterContent: ProjectContent,
): ChangeSummary[] {
  return summarizeFlat(flatten(beforeContent), flatten(afterContent));
}

export function summarizeFlat(before: FlatContent, after: FlatContent): ChangeSummary[] {
  const out: ChangeSummary[] = [];
  const seen = new Set<string>();
  const add = (code: ChangeCode, key: string, label: string) => {
    const id = `${code}@${key}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ code, label: shortLabel(label) });
  };
  const label = (key: string) => labelOf(after.items.get(key) ?? before.items.get(key));
  for (const d of diffFlat(before, after)) {
    switch (d.kind) {
      case 'questionnaire':
        if (d.change === 'removed') add('007', d.key, '');
        else if (d.change === 'added') add('004', d.key, '');
        break;
      case 'block':
        if (d.change === 'removed') add('011', d.key, d.label);
        else if (d.change === 'added') add('004', d.key, d.label);
        else if (d.change === 'changed') add('009', d.key, d.label);
        break;
      case 'question':
        if (d.change === 'removed') add('006', d.key, d.label);
        else if (d.change === 'added') add('005', d.key, d.label);
        else if (d.change === 'changed') add('008', d.key, d.label);
        else add('012', d.key, d.label);
        break;
      case 'answer':
      case 'statement': {
        const q = questionOf(d.change === 'removed' ? before : after, d.key);
        add('008', q, label(q));
        break;
      }
      case 'portrait':
        add('003', d.key, d.label);
        break;
    }
  }
  return out;
}
