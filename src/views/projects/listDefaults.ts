import type { ListSort } from '../ui/listQuery';

// How /projects first asks for its list: the start-up asks the same before the page has loaded
// (earlyCalls.ts), and the page takes that answer when the two match.
export const PROJECTS_SORT: ListSort = { key: 'id', order: 'desc' };
