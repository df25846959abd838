import type { ExclusionTarget, RespondentFilters } from '../../api/responses';

// What the reader has picked in the list: some rows by id, or everyone the filter matches (the
// list may be far longer than what was ever on screen, so that is the filter itself, not ids).
// Exclusion and restore take either (POST /project/respondents/exclusion: ids | filter).

export type Selection =
  { kind: 'ids'; ids: ReadonlySet<number> } | { kind: 'filter'; filters: RespondentFilters; count: number };

export const NOTHING: Selection = { kind: 'ids', ids: new Set() };

export function toggle(sel: Selection, id: number): Selection {
  // Unticking one row of "everyone" would need "everyone but these", which the call does not take:
  // the choice starts again from that row.
  const ids = new Set(sel.kind === 'ids' ? sel.ids : []);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { kind: 'ids', ids };
}

/** Ticks (or unticks, when all of them are ticked) the given rows. */
export function toggleAll(sel: Selection, ids: readonly number[]): Selection {
  const current = sel.kind === 'ids' ? sel.ids : new Set<number>();
  const all = ids.length > 0 && ids.every((id) => current.has(id));
  const next = new Set(current);
  for (const id of ids) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return { kind: 'ids', ids: next };
}

export const everyone = (filters: RespondentFilters, count: number): Selection => ({
  kind: 'filter',
  filters,
  count,
});

export const isSelected = (sel: Selection, id: number) => sel.kind === 'filter' || sel.ids.has(id);

export const selectedCount = (sel: Selection) => (sel.kind === 'filter' ? sel.count : sel.ids.size);

export function targetOf(sel: Selection): ExclusionTarget {
  return sel.kind === 'filter' ? { filter: sel.filters } : { ids: [...sel.ids] };
}
