import {
  labelOf,
  ownFields,
  ownerOf,
  ROOT,
  sameList,
  stableKeys,
  type FlatContent,
  type FlatItem,
} from './flat';
import type { Choices, Decision, MergeConflict, Side } from './merge';

// The merged content's lists put in order (merge.ts's rule for moves and reorders): items whose
// order both sides kept keep it; an item moved or added by one side goes after the item it follows
// on that side; moved by both to different places is a conflict of position.

/** Orders every list of the merged content. */
export function build(
  base: FlatContent,
  mine: FlatContent,
  theirs: FlatContent,
  decisions: Map<string, Decision>,
  choices: Choices,
  conflicts: Map<string, MergeConflict>,
): FlatContent {
  const items = new Map<string, FlatItem>();
  for (const [k, d] of decisions) if (d.item) items.set(k, d.item);
  // An item whose list's owner is gone: back to where the other side has it, if that still exists.
  const alive = (list: string) => {
    const owner = ownerOf(list);
    return owner === ROOT || items.has(owner);
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const [k, it] of items) {
      if (alive(it.list)) continue;
      const fallback = [mine, theirs, base]
        .map((f) => f.items.get(k)?.list)
        .find((l) => l !== undefined && alive(l));
      if (fallback) items.set(k, { ...it, list: fallback });
      else items.delete(k);
      changed = true;
    }
  }

  const byList = new Map<string, string[]>();
  for (const [k, it] of items) {
    let l = byList.get(it.list);
    if (!l) byList.set(it.list, (l = []));
    l.push(k);
  }
  const lists = new Map<string, string[]>();
  for (const [list, members] of byList) {
    lists.set(list, orderList(list, new Set(members), base, mine, theirs, choices, conflicts, items));
  }
  return { items, lists };
}

function orderList(
  list: string,
  members: Set<string>,
  base: FlatContent,
  mine: FlatContent,
  theirs: FlatContent,
  choices: Choices,
  conflicts: Map<string, MergeConflict>,
  items: Map<string, FlatItem>,
): string[] {
  const only = (f: FlatContent) => (f.lists.get(list) ?? []).filter((k) => members.has(k));
  const b0 = base.lists.get(list) ?? [];
  // Fast path: nobody reordered, added or removed anything here.
  if (
    b0.length === members.size &&
    sameList(b0, mine.lists.get(list) ?? []) &&
    sameList(b0, theirs.lists.get(list) ?? [])
  )
    return b0;
  const b = only(base);
  const m = only(mine);
  const t = only(theirs);
  const stableM = stableKeys(b, m);
  const stableT = stableKeys(b, t);
  const result = b.filter((k) => stableM.has(k) && stableT.has(k));
  const placed = new Set(result);
  const prevIn = (order: string[], k: string) => {
    const i = order.indexOf(k);
    return i <= 0 ? null : order[i - 1];
  };
  const source = new Map<string, Side>();
  for (const k of members) {
    if (placed.has(k)) continue;
    const movedM = m.includes(k) && !stableM.has(k);
    const movedT = t.includes(k) && !stableT.has(k);
    let side: Side;
    if (movedM && movedT) {
      side = 'mine';
      if (prevIn(m, k) !== prevIn(t, k) && base.items.has(k)) {
        const known = conflicts.get(k);
        if (known) {
          if (!known.fields.includes('position') && !known.fields.includes('place'))
            known.fields.push('position');
        } else {
          const bi = base.items.get(k);
          conflicts.set(k, {
            key: k,
            kind: items.get(k)!.kind,
            id: items.get(k)!.id,
            reason: 'changed',
            fields: ['position'],
            base: bi ? ownFields(bi.fields) : null,
            mine: mine.items.has(k) ? ownFields(mine.items.get(k)!.fields) : null,
            theirs: theirs.items.has(k) ? ownFields(theirs.items.get(k)!.fields) : null,
            label: labelOf(items.get(k)),
            inside: [],
          });
        }
        side = choices[k] === 'theirs' ? 'theirs' : 'mine';
      }
    } else if (movedM) side = 'mine';
    else if (movedT) side = 'theirs';
    else side = m.includes(k) ? 'mine' : 'theirs';
    source.set(k, side);
  }
  // Each item goes right after the item it follows on its side, once that one is placed: an item
  // that follows one the other side moved waits for it (placed by the nearest item already placed,
  // it came before it, and merging the result again with either side moved it back).
  const orderOf = (side: Side) => (side === 'mine' ? m : t);
  // Each item's predecessor on its own side, looked up once (a block may hold 1 000 questions).
  const follows = new Map<string, string | null>();
  for (const [k, side] of source) follows.set(k, prevIn(orderOf(side), k));
  for (let progress = true; progress;) {
    progress = false;
    for (const side of ['mine', 'theirs'] as const)
      for (const k of orderOf(side)) {
        if (source.get(k) !== side || placed.has(k)) continue;
        const before = follows.get(k) ?? null;
        if (before !== null && !placed.has(before)) continue;
        result.splice(before === null ? 0 : result.indexOf(before) + 1, 0, k);
        placed.add(k);
        progress = true;
      }
  }
  // What still waits follows one that waits for it in turn (each side put it after the other):
  // after the nearest item placed before it on its side.
  for (const side of ['mine', 'theirs'] as const) {
    let anchor = -1;
    for (const k of orderOf(side)) {
      if (source.get(k) === side && !placed.has(k)) {
        result.splice(anchor + 1, 0, k);
        placed.add(k);
        anchor = anchor + 1;
      } else if (placed.has(k)) anchor = result.indexOf(k);
    }
  }
  // Anything neither side lists here (came back by a fallback) goes last.
  for (const k of members) if (!placed.has(k)) result.push(k);
  return result;
}
