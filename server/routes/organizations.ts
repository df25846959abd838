import type { FastifyInstance } from 'fastify';
import { Role } from '../../src/domain/roles';
import {
  OrganizationCreateBody,
  OrganizationQuery,
  OrganizationsQuery,
} from '../../src/domain/organizations';
import { audit } from '../http/audit';
import { requireRole, requireUser } from '../http/context';
import { badRequest, conflict, notFound } from '../http/errors';
import { parse } from '../http/validate';
import {
  categoryExists,
  findOrganization,
  insertOrganization,
  listCategories,
  listOrganizations,
  organizationNameTaken,
} from '../repos/organizations';
import { isUniqueViolation } from '../repos/people';

// Organizations and categories (spec section 7). An Administrator sees and creates every
// organization; anyone else sees only their own, so a list never tells one customer about another.

const nameTaken = () =>
  conflict((t) => t.people.errors.organizationExists(), { code: 'organization-exists', field: 'name' });

export default async function organizationRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/categories', async (req) => {
    requireUser(req);
    return listCategories(db, req.locale);
  });

  app.get('/organizations', async (req, reply) => {
    const me = requireUser(req);
    const q = parse(OrganizationsQuery, req.query);
    const onlyId = me.role.id === Role.Administrator ? undefined : (me.organization?.id ?? null);
    const page = await listOrganizations(db, { ...q, onlyId }, req.locale);
    reply.header('x-total-count', String(page.total));
    return page.items;
  });

  app.get('/organization', async (req) => {
    const me = requireUser(req);
    const { id } = parse(OrganizationQuery, req.query);
    // Someone else's organization answers as if it did not exist.
    if (me.role.id !== Role.Administrator && me.organization?.id !== id) throw notFound();
    const org = await findOrganization(db, id, req.locale);
    if (!org) throw notFound();
    return org;
  });

  app.post('/organizations', async (req, reply) => {
    requireRole(req, Role.Administrator);
    const body = parse(OrganizationCreateBody, req.body);
    if (body.categoryId != null && !(await categoryExists(db, body.categoryId))) {
      throw badRequest((t) => t.people.errors.categoryNotFound(), { field: 'categoryId' });
    }
    if (await organizationNameTaken(db, body.name)) throw nameTaken();
    let id: number;
    try {
      id = await insertOrganization(db, {
        name: body.name,
        type: body.type,
        categoryId: body.categoryId ?? null,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    await audit(req, {
      chapter: 'organizations',
      message: 'people.log.organizationCreated',
      params: { name: body.name },
    });
    return reply.status(201).send(await findOrganization(db, id, req.locale));
  });
}
