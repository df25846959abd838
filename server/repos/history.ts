import { sql } from 'kysely';
import type { Db } from '../db';
import type { Locales } from '../../src/i18n/i18n-types';
import { I18N_PARAM_PREFIX, type HistoryEntry, type HistoryQuery } from '../../src/domain/history';
import { translateKey } from '../http/i18n';
import { containsPattern } from './people';

// Reading the log (the Logs page). Rows are written only by server/http/audit.ts and never changed.

/**
 * Params that hold a bare status id (the project status route writes them so) and the i18n group of
 * its names: the log shows "Created → On moderation", never "1 → 2", for old rows too.
 */
const STATUS_ID_PARAMS: Record<string, { params: string[]; names: string }> = {
  'projects.log.statusChanged': { params: ['from', 'to'], names: 'projects.status' },
};

function translateParams(locale: Locales, raw: string, messageKey: string): Record<string, unknown> {
  let params: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object') params = parsed as Record<string, unknown>;
  } catch {
    /* a broken row still shows its message key */
  }
  const ids = STATUS_ID_PARAMS[messageKey];
  for (const k of ids?.params ?? []) {
    if (typeof params[k] === 'number') params[k] = `${I18N_PARAM_PREFIX}${ids!.names}.${params[k]}`;
  }
  for (const [k, val] of Object.entries(params)) {
    if (typeof val === 'string' && val.startsWith(I18N_PARAM_PREFIX)) {
      const key = val.slice(I18N_PARAM_PREFIX.length);
      const text = translateKey(locale, key);
      params[k] = text === key ? val : text;
    }
  }
  return params;
}

export async function listHistory(db: Db, q: HistoryQuery, locale: Locales): Promise<HistoryEntry[]> {
  let query = db.selectFrom('history').selectAll();
  if (q.upto !== undefined) {
    const upto = q.upto;
    query =
      q.uptoId !== undefined
        ? query.where((eb) =>
            eb.or([
              eb('created_at', '<', upto),
              eb.and([eb('created_at', '=', upto), eb('id', '<', q.uptoId!)]),
            ]),
          )
        : query.where('created_at', '<', upto);
  }
  if (q.chapter) query = query.where('chapter', '=', q.chapter);
  if (q.email) query = query.where(sql<boolean>`lower(email) like ${containsPattern(q.email)} escape '\\'`);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    organization: r.organization,
    chapter: r.chapter,
    service: r.service,
    date: r.created_at,
    message: translateKey(locale, r.message_key, translateParams(locale, r.message_params, r.message_key)),
  }));
}

/** The chapters that have entries, for the filter. */
export async function listChapters(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('history').select('chapter').distinct().orderBy('chapter').execute();
  return rows.map((r) => r.chapter);
}
