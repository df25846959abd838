import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role, type RoleId } from '../../src/domain/roles';

// Tariffs on the real server: only the Administrator lists, creates, changes and deletes them;
// discounts are whole percents 0–100; names are unique; lists are paged on the server.

let server: TestServer;
let admin: Session;

const ROLES: RoleId[] = [
  Role.Administrator,
  Role.Moderator,
  Role.ModeratorVK,
  Role.Researcher,
  Role.Issuer,
  Role.DemoResearcher,
];

async function tariffCount() {
  const r = await server.app.db
    .selectFrom('tariffs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
});
afterAll(async () => {
  await server?.close();
});

describe('tariffs', () => {
  it('belong to the Administrator alone', async () => {
    const existing = await server.call('POST', '/tariffs', {
      session: admin,
      body: { name: 'Guarded', discount: 5 },
    });
    for (const role of ROLES) {
      const s = await server.as(role);
      const ok = role === Role.Administrator;
      expect((await server.call('GET', '/tariffs', { session: s })).status, `${role} GET`).toBe(
        ok ? 200 : 403,
      );
      expect(
        (await server.call('POST', '/tariffs', { session: s, body: { name: `By ${role}`, discount: 1 } }))
          .status,
      ).toBe(ok ? 201 : 403);
      expect(
        (
          await server.call('PUT', '/tariff', {
            session: s,
            body: { tariffId: existing.body.id, name: 'Guarded', discount: 6 },
          })
        ).status,
      ).toBe(ok ? 200 : 403);
    }
    for (const role of ROLES.filter((r) => r !== Role.Administrator)) {
      const s = await server.as(role);
      expect(
        (await server.call('DELETE', '/tariff', { session: s, body: { tariffId: existing.body.id } })).status,
      ).toBe(403);
    }
    expect((await server.call('GET', '/tariffs')).status).toBe(401);
    expect((await server.call('POST', '/tariffs', { body: { name: 'x', discount: 1 } })).status).toBe(401);
  });

  it('are created with a name and a discount, listed with their registration date, and deleted', async () => {
    const before = Date.now();
    const created = await server.call('POST', '/tariffs', {
      session: admin,
      body: { name: '  Partner  ', discount: 15 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Partner', discount: 15 });
    expect(created.body.createdAt).toBeGreaterThanOrEqual(before);
    const list = await server.call('GET', '/tariffs?search=partner', { session: admin });
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('x-total-count')).toBe('1');

    const edited = await server.call('PUT', '/tariff', {
      session: admin,
      body: { tariffId: created.body.id, name: 'Partner+', discount: 20 },
    });
    expect(edited.body).toMatchObject({
      id: created.body.id,
      name: 'Partner+',
      discount: 20,
      createdAt: created.body.createdAt,
    });

    const del = await server.call('DELETE', '/tariff', {
      session: admin,
      body: { tariffId: created.body.id },
    });
    expect(del.status).toBe(200);
    expect((await server.call('GET', '/tariffs?search=partner', { session: admin })).body).toEqual([]);
    const again = await server.call('DELETE', '/tariff', {
      session: admin,
      body: { tariffId: created.body.id },
    });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Tariff not found');
    expect(
      (
        await server.call('PUT', '/tariff', {
          session: admin,
          body: { tariffId: created.body.id, name: 'Ghost', discount: 1 },
        })
      ).status,
    ).toBe(404);

    const keys = (
      await server.app.db
        .selectFrom('history')
        .select('message_key')
        .where('chapter', '=', 'pricing')
        .execute()
    ).map((r) => r.message_key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'pricing.log.tariffCreated',
        'pricing.log.tariffUpdated',
        'pricing.log.tariffDeleted',
      ]),
    );
  });

  it('refuses every bad field with the spec’s messages, writing nothing', async () => {
    const before = await tariffCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '', discount: 10 }, 'name', 'This field is required'],
      [{ name: 'x'.repeat(101), discount: 10 }, 'name', 'At most 100 characters'],
      [{ discount: 10 }, 'name', 'This field is required'],
      [{ name: 'A' }, 'discount', 'This field is required'],
      [{ name: 'A', discount: '10' }, 'discount', 'This field must be a number'],
      [{ name: 'A', discount: 12.5 }, 'discount', 'This field must be a number'],
      [{ name: 'A', discount: -1 }, 'discount', 'This field must be a positive number'],
      [{ name: 'A', discount: 101 }, 'discount', 'At most 100'],
      [{ name: 'A', discount: 1, color: 'red' }, 'color', 'Unknown field'],
    ];
    for (const [body, field, message] of cases) {
      const res = await server.call('POST', '/tariffs', { session: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
      expect(res.body.message, JSON.stringify(body)).toBe(`${field}: ${message}`);
    }
    expect(
      (await server.call('POST', '/tariffs', { session: admin, body: { name: 'Zero', discount: 0 } })).status,
    ).toBe(201);
    expect(
      (await server.call('POST', '/tariffs', { session: admin, body: { name: 'Full', discount: 100 } }))
        .status,
    ).toBe(201);
    expect(await tariffCount()).toBe(before + 2);
    const ru = await server.call('POST', '/tariffs', {
      session: admin,
      locale: 'ru',
      body: { name: 'A', discount: -5 },
    });
    expect(ru.body.message).toBe('discount: Это поле должно быть положительным числом');
  });

  it('keeps names unique in any case', async () => {
    expect(
      (await server.call('POST', '/tariffs', { session: admin, body: { name: 'Gold', discount: 10 } }))
        .status,
    ).toBe(201);
    const dup = await server.call('POST', '/tariffs', {
      session: admin,
      body: { name: 'GOLD', discount: 11 },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ field: 'name', message: 'A tariff with this name already exists' });
    const silver = await server.call('POST', '/tariffs', {
      session: admin,
      body: { name: 'Silver', discount: 5 },
    });
    expect(
      (
        await server.call('PUT', '/tariff', {
          session: admin,
          body: { tariffId: silver.body.id, name: 'gold', discount: 5 },
        })
      ).status,
    ).toBe(409);
  });

  it('pages, searches and sorts on the server', async () => {
    const fresh = await startServer();
    try {
      const a = await fresh.as(Role.Administrator);
      for (let i = 1; i <= 12; i++) {
        await fresh.call('POST', '/tariffs', {
          session: a,
          body: { name: `Plan ${String(i).padStart(2, '0')}`, discount: (i * 7) % 100 },
        });
      }
      const p2 = await fresh.call('GET', '/tariffs?page=2&pageSize=5&sort=name&order=asc', { session: a });
      expect(p2.headers.get('x-total-count')).toBe('12');
      expect(p2.body.map((t: { name: string }) => t.name)).toEqual([
        'Plan 06',
        'Plan 07',
        'Plan 08',
        'Plan 09',
        'Plan 10',
      ]);
      const byDiscount = await fresh.call('GET', '/tariffs?sort=discount&order=desc&pageSize=3', {
        session: a,
      });
      const discounts = byDiscount.body.map((t: { discount: number }) => t.discount);
      expect(discounts).toEqual([...discounts].sort((x, y) => y - x));
      expect(discounts[0]).toBe(84);
      // Newest first by default.
      const newest = await fresh.call('GET', '/tariffs?pageSize=1', { session: a });
      expect(newest.body[0].name).toBe('Plan 12');
      expect((await fresh.call('GET', '/tariffs?pageSize=500', { session: a })).status).toBe(400);
      expect((await fresh.call('GET', '/tariffs?sort=id', { session: a })).status).toBe(400);
    } finally {
      await fresh.close();
    }
  });
});
