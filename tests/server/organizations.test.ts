import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role, type RoleId } from '../../src/domain/roles';
import { CATEGORY_SEED, OrganizationType } from '../../src/domain/organizations';

// Organizations and categories: GET /categories, GET /organizations, GET /organization,
// POST /organizations.

describe('organizations', () => {
  let server: TestServer;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer();
    admin = await server.as(Role.Administrator, { organizationId: null });
  });
  afterAll(() => server?.close());

  const create = (body: unknown, session: Session = admin) =>
    server.call('POST', '/organizations', { body, session });
  const orgCount = async () =>
    Number(
      (
        await server.app.db
          .selectFrom('organizations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('seeds the categories and names them in the caller’s language', async () => {
    const en = await server.call('GET', '/categories', { session: admin });
    expect(en.status).toBe(200);
    expect(en.body.map((c: { code: string }) => c.code)).toEqual(CATEGORY_SEED.map((c) => c.code));
    expect(en.body.find((c: { code: string }) => c.code === 'finance').name).toBe(
      'Banking, finance and insurance',
    );
    const ru = await server.call('GET', '/categories', { session: admin, locale: 'ru' });
    expect(ru.body.find((c: { code: string }) => c.code === 'finance').name).toBe(
      'Банки, финансы и страхование',
    );
    // Every signed-in role needs them for its forms; strangers do not.
    const issuer = await server.as(Role.Issuer);
    expect((await server.call('GET', '/categories', { session: issuer })).status).toBe(200);
    expect((await server.call('GET', '/categories')).status).toBe(401);
  });

  it('seeds the organization types', async () => {
    const rows = await server.app.db.selectFrom('organization_types').selectAll().orderBy('id').execute();
    expect(rows.map((r) => r.code)).toEqual([
      'researchAgency',
      'gamePublisher',
      'platform',
      'advertiser',
      'individual',
    ]);
  });

  it('creates an organization with a type and category, and logs it', async () => {
    const cats = (await server.call('GET', '/categories', { session: admin })).body;
    const res = await create({
      name: '  Pixel Games  ',
      type: OrganizationType.GamePublisher,
      categoryId: cats[6].id,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Pixel Games',
      type: 2,
      category: { id: cats[6].id, name: 'Games' },
    });
    const got = await server.call('GET', `/organization?id=${res.body.id}`, { session: admin });
    expect(got.body).toEqual(res.body);
    const log = await server.call('GET', '/history?chapter=organizations', { session: admin });
    expect(log.body[0]).toMatchObject({
      service: 'POST /organizations',
      message: 'Created organization “Pixel Games”',
    });
  });

  it('refuses a second organization with the same name, whatever its case and spacing', async () => {
    expect((await create({ name: 'Северный Ветер', type: 1 })).status).toBe(201);
    const before = await orgCount();
    for (const name of ['северный ветер', '  СЕВЕРНЫЙ   ВЕТЕР ']) {
      const res = await create({ name, type: 1 });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('An organization with this name already exists');
    }
    const both = await Promise.all([
      create({ name: 'Race Org', type: 1 }),
      create({ name: 'race org', type: 3 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await orgCount()).toBe(before + 1);
  });

  it('answers bad bodies with clear messages and writes nothing', async () => {
    const before = await orgCount();
    for (const [body, message] of [
      [{ type: 1 }, 'name: This field is required'],
      [{ name: '   ', type: 1 }, 'name: This field is required'],
      [{ name: 'x'.repeat(201), type: 1 }, 'name: At most 200 characters'],
      [{ name: 'Typeless' }, 'type: This field is required'],
      [{ name: 'Bad Type', type: 42 }, 'type: Invalid value'],
      [{ name: 'Bad Cat', type: 1, categoryId: 99999 }, 'Category not found'],
      [{ name: 'Extra', type: 1, owner: 3 }, 'owner: Unknown field'],
    ] as const) {
      const res = await create(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    expect(await orgCount()).toBe(before);
  });

  it('lists every organization to the administrator, filtered by type and searched, with paging', async () => {
    for (const name of ['Alpha Research', 'Beta Research', 'Gamma Research'])
      await create({ name, type: OrganizationType.ResearchAgency });
    await create({ name: 'Delta Platform', type: OrganizationType.Platform });
    const res = await server.call('GET', '/organizations?search=research&pageSize=2', { session: admin });
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.body.map((o: { name: string }) => o.name)).toEqual(['Alpha Research', 'Beta Research']);
    const platforms = await server.call(
      'GET',
      `/organizations?type=${OrganizationType.Platform}&search=delta`,
      { session: admin },
    );
    expect(platforms.body.map((o: { name: string }) => o.name)).toEqual(['Delta Platform']);
    const cyr = await server.call('GET', `/organizations?search=${encodeURIComponent('ВЕТЕР')}`, {
      session: admin,
    });
    expect(cyr.body.map((o: { name: string }) => o.name)).toEqual(['Северный Ветер']);
    expect((await server.call('GET', '/organizations?type=9', { session: admin })).status).toBe(400);
  });

  it('shows other roles only their own organization; another one is 404; only the administrator creates', async () => {
    const mine = await server.createOrganization('Mine Ltd');
    const other = await server.createOrganization('Other Ltd');
    for (const role of [
      Role.Researcher,
      Role.DemoResearcher,
      Role.Issuer,
      Role.Moderator,
      Role.ModeratorVK,
    ] as RoleId[]) {
      const s = await server.as(role, { organizationId: mine });
      const list = await server.call('GET', '/organizations', { session: s });
      expect(list.body.map((o: { id: number }) => o.id)).toEqual([mine]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect((await server.call('GET', `/organization?id=${mine}`, { session: s })).status).toBe(200);
      expect((await server.call('GET', `/organization?id=${other}`, { session: s })).status).toBe(404);
      expect((await create({ name: `By ${role}`, type: 1 }, s)).status).toBe(403);
    }
    const loner = await server.as(Role.Moderator, { organizationId: null });
    expect((await server.call('GET', '/organizations', { session: loner })).body).toEqual([]);
    expect((await server.call('GET', '/organizations')).status).toBe(401);
    expect((await server.call('GET', '/organization?id=999999', { session: admin })).status).toBe(404);
    expect((await server.call('GET', '/organization?id=abc', { session: admin })).status).toBe(400);
  });
});
