import type { FastifyInstance } from 'fastify';
import { ProjectPriceQuery, projectPrice } from '../../src/domain/projectPrice';
import { requireUser } from '../http/context';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { readCalculator, readVkPercent } from '../repos/tariffs';

// GET /project/price: what the project with these counts would cost (the editor's live footer).
// Whoever may read the project may ask; the answer is the price only, never the calculator's
// settings, which are the Administrator's (docs/decisions/panels.md). Projects are priced with the
// researchers' settings: every project belongs to a researcher's organization.
export default async function priceRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/project/price', async (req, reply) => {
    const user = requireUser(req);
    const q = parse(ProjectPriceQuery, req.query);
    await projectFor(db, user, q.pid, 'read');
    const [calculator, vk] = await Promise.all([readCalculator(db), readVkPercent(db)]);
    reply.header('cache-control', 'no-store');
    return projectPrice({ ...calculator.researchers, vkPercent: vk.researchers }, q);
  });
}
