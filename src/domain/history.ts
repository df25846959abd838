import * as v from 'valibot';
import { INT32_MAX, queryInt } from './validation';

// The Logs page (spec sections 3 and 7): GET /history pages by time, newest first. `upto` is a date
// (unix ms): entries strictly older come back. Several entries can share a millisecond, so the
// client also passes the id of the last entry it holds (`uptoId`), and entries of that same
// millisecond with a smaller id come back too; nothing is skipped or repeated at a page boundary.

export const HISTORY_LIMIT_DEFAULT = 100;
export const HISTORY_LIMIT_MAX = 500;

export interface HistoryEntry {
  id: number;
  email: string;
  organization: string;
  chapter: string;
  /** The call that wrote the entry, e.g. "POST /user". */
  service: string;
  /** Unix milliseconds. */
  date: number;
  /** Translated into the reader's language. */
  message: string;
}

const int = queryInt;

export const HistoryQuery = v.object({
  upto: v.optional(int(1, Number.MAX_SAFE_INTEGER)),
  uptoId: v.optional(int(1, INT32_MAX)),
  limit: v.optional(int(1, HISTORY_LIMIT_MAX), String(HISTORY_LIMIT_DEFAULT)),
  chapter: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(100, 'tooLong')), ''),
  email: v.optional(v.pipe(v.string('type'), v.trim(), v.toLowerCase(), v.maxLength(320, 'tooLong')), ''),
});
export type HistoryQuery = v.InferOutput<typeof HistoryQuery>;

/** A log param written as `i18n:<key>` is itself translated when read (a status or role name). */
export const I18N_PARAM_PREFIX = 'i18n:';
