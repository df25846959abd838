import type { FastifyInstance } from 'fastify';
import { VersionQuery, VersionsQuery, type VersionList } from '../../src/domain/content/versions';
import { requireUser } from '../http/context';
import { notFound } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { KEPT_VERSIONS, loadContent } from '../repos/content';
import { listVersions, loadVersion } from '../repos/content-versions';

// The version history of a project's content (issue #16): GET /project/versions lists the kept
// versions (newest first, who, when, the change summary in codes 001–013) and GET /project/version
// answers one of them with its content. Whoever may read the project may read its history; nothing
// here writes (a restore is an edit in the editor, saved like any other).

export default async function contentHistoryRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/project/versions', async (req, reply): Promise<VersionList> => {
    const user = requireUser(req);
    const { pid } = parse(VersionsQuery, req.query);
    await projectFor(db, user, pid, 'read');
    const [current, versions] = await Promise.all([loadContent(db, pid), listVersions(db, pid)]);
    reply.header('cache-control', 'no-store');
    return { current: current.version, kept: KEPT_VERSIONS, versions };
  });

  app.get('/project/version', async (req, reply) => {
    const user = requireUser(req);
    const { pid, version } = parse(VersionQuery, req.query);
    await projectFor(db, user, pid, 'read');
    const found = await loadVersion(db, pid, version);
    if (!found) throw notFound((t) => t.versions.notKept({ version }));
    reply.header('cache-control', 'no-store');
    return found;
  });
}
