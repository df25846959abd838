import type { FastifyInstance } from 'fastify';
import {
  AGE_MAX,
  AGE_MIN,
  CitiesQuery,
  EDUCATION_LEVELS,
  GENDERS,
  TARGET_PLATFORMS,
  type City,
  type TargetField,
  type TargetPlatform,
} from '../../src/domain/lookups';
import { requireUser } from '../http/context';
import { parse } from '../http/validate';
import { searchCities } from '../data/cities';

// The lookups the editor needs (spec section 7): target platforms, target fields with their values,
// and Russian cities searched by name. Every signed-in user may read them; they hold nothing private.

export default async function lookupRoutes(app: FastifyInstance) {
  app.get('/target-platforms', async (req): Promise<TargetPlatform[]> => {
    requireUser(req);
    return TARGET_PLATFORMS.map((p) => ({
      id: p.id,
      code: p.code,
      name: req.t.projects.platforms[p.code](),
    }));
  });

  app.get('/target-fields', async (req): Promise<TargetField[]> => {
    requireUser(req);
    const t = req.t.projects;
    return [
      {
        id: 'gender',
        name: t.targetFields.gender(),
        kind: 'select',
        values: GENDERS.map((id) => ({ id, name: t.gender[id]() })),
      },
      { id: 'age', name: t.targetFields.age(), kind: 'range', min: AGE_MIN, max: AGE_MAX },
      { id: 'city', name: t.targetFields.city(), kind: 'lookup', source: '/cities' },
      {
        id: 'education',
        name: t.targetFields.education(),
        kind: 'select',
        values: EDUCATION_LEVELS.map((id) => ({ id, name: t.education[id]() })),
      },
    ];
  });

  app.get('/cities', async (req): Promise<City[]> => {
    requireUser(req);
    const q = parse(CitiesQuery, req.query);
    return searchCities({ search: q.search, limit: q.limit, region: q.region, locale: req.locale });
  });
}
