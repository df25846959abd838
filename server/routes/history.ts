import type { FastifyInstance } from 'fastify';
import { Role } from '../../src/domain/roles';
import { HistoryQuery } from '../../src/domain/history';
import { requireRole } from '../http/context';
import { parse } from '../http/validate';
import { listChapters, listHistory } from '../repos/history';

// The Logs page (Administrator only). Read-only by design: no call edits or deletes an entry.
export default async function historyRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/history', async (req) => {
    requireRole(req, Role.Administrator);
    const q = parse(HistoryQuery, req.query);
    return listHistory(db, q, req.locale);
  });

  app.get('/history/chapters', async (req) => {
    requireRole(req, Role.Administrator);
    return listChapters(db);
  });
}
