import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role, type RoleId } from '../../src/domain/roles';
import { CALCULATOR_KEYS } from '../../src/domain/pricing';

// The tariff calculator's settings (GET/POST /tariffs/calculator) and the VK percent
// (GET/POST /vk/percent): who may read and change them, validation of every field, and that a
// refused change leaves both audiences' settings as they were.

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
// Issue #17: the settings are read by the Administrator alone.
const READERS: RoleId[] = [Role.Administrator];

const settings = (base: number) =>
  Object.fromEntries(CALCULATOR_KEYS.map((k, i) => [k, k === 'questionStep' ? 5 : base + i])) as Record<
    (typeof CALCULATOR_KEYS)[number],
    number
  >;

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
});
afterAll(async () => {
  await server?.close();
});

describe('calculator settings', () => {
  it('start with a seeded price list for both audiences', async () => {
    const res = await server.call('GET', '/tariffs/calculator', { session: admin });
    expect(res.status).toBe(200);
    for (const audience of ['researchers', 'issuers']) {
      expect(Object.keys(res.body[audience]).sort()).toEqual([...CALCULATOR_KEYS].sort());
      expect(res.body[audience].questionStep).toBeGreaterThanOrEqual(1);
    }
    const vk = await server.call('GET', '/vk/percent', { session: admin });
    expect(vk.body).toEqual({ researchers: 10, issuers: 10 });
  });

  it('are read and changed by the Administrator alone', async () => {
    for (const role of ROLES) {
      const s = await server.as(role);
      const read = READERS.includes(role) ? 200 : 403;
      expect(
        (await server.call('GET', '/tariffs/calculator', { session: s })).status,
        `${role} GET calc`,
      ).toBe(read);
      expect((await server.call('GET', '/vk/percent', { session: s })).status, `${role} GET vk`).toBe(read);
      const write = role === Role.Administrator ? 200 : 403;
      const body = { researchers: settings(100 + role), issuers: settings(200 + role) };
      expect(
        (await server.call('POST', '/tariffs/calculator', { session: s, body })).status,
        `${role} POST calc`,
      ).toBe(write);
      expect(
        (await server.call('POST', '/vk/percent', { session: s, body: { researchers: role, issuers: role } }))
          .status,
      ).toBe(write);
    }
    // Only the Administrator's change stuck.
    const now = await server.call('GET', '/tariffs/calculator', { session: admin });
    expect(now.body).toEqual({ researchers: settings(101), issuers: settings(201) });
    expect((await server.call('GET', '/vk/percent', { session: admin })).body).toEqual({
      researchers: 1,
      issuers: 1,
    });
    expect((await server.call('GET', '/tariffs/calculator')).status).toBe(401);
    expect((await server.call('POST', '/vk/percent', { body: { researchers: 1, issuers: 1 } })).status).toBe(
      401,
    );
  });

  it('saves both columns and logs the change', async () => {
    const body = { researchers: settings(1000), issuers: settings(0) };
    const res = await server.call('POST', '/tariffs/calculator', { session: admin, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
    expect((await server.call('GET', '/tariffs/calculator', { session: admin })).body).toEqual(body);
    const vk = await server.call('POST', '/vk/percent', {
      session: admin,
      body: { researchers: 0, issuers: 100 },
    });
    expect(vk.body).toEqual({ researchers: 0, issuers: 100 });
    const keys = (
      await server.app.db
        .selectFrom('history')
        .select('message_key')
        .where('chapter', '=', 'pricing')
        .execute()
    ).map((r) => r.message_key);
    expect(keys).toEqual(
      expect.arrayContaining(['pricing.log.calculatorChanged', 'pricing.log.vkPercentChanged']),
    );
  });

  it('refuses every bad setting with the spec’s messages and changes nothing', async () => {
    const good = { researchers: settings(10), issuers: settings(20) };
    await server.call('POST', '/tariffs/calculator', { session: admin, body: good });
    for (const key of CALCULATOR_KEYS) {
      for (const audience of ['researchers', 'issuers'] as const) {
        const cases: [unknown, string][] = [
          ['12', 'This field must be a number'],
          [1.5, 'This field must be a number'],
          [null, 'This field is required'],
          [-1, 'This field must be a positive number'],
          [10_000_001, 'At most 10000000'],
        ];
        if (key === 'questionStep') cases.push([0, 'This field must be a positive number']);
        for (const [value, message] of cases) {
          const body = { ...good, [audience]: { ...good[audience], [key]: value } };
          const res = await server.call('POST', '/tariffs/calculator', { session: admin, body });
          expect(res.status, `${audience}.${key}=${JSON.stringify(value)}`).toBe(400);
          expect(res.body.field).toBe(`${audience}.${key}`);
          expect(res.body.message).toBe(`${audience}.${key}: ${message}`);
        }
      }
    }
    const { basePrice: _b, ...missing } = good.researchers;
    expect(
      (
        await server.call('POST', '/tariffs/calculator', {
          session: admin,
          body: { ...good, researchers: missing },
        })
      ).body.field,
    ).toBe('researchers.basePrice');
    expect(
      (
        await server.call('POST', '/tariffs/calculator', {
          session: admin,
          body: { researchers: good.researchers },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await server.call('POST', '/tariffs/calculator', {
          session: admin,
          body: { ...good, issuers: { ...good.issuers, vkPercent: 5 } },
        })
      ).body.field,
    ).toBe('issuers.vkPercent');
    // A zero step would divide by zero; zero prices are fine.
    const zeros = Object.fromEntries(CALCULATOR_KEYS.map((k) => [k, k === 'questionStep' ? 1 : 0]));
    expect(
      (
        await server.call('POST', '/tariffs/calculator', {
          session: admin,
          body: { researchers: zeros, issuers: zeros },
        })
      ).status,
    ).toBe(200);
    await server.call('POST', '/tariffs/calculator', { session: admin, body: good });
    expect((await server.call('GET', '/tariffs/calculator', { session: admin })).body).toEqual(good);
  });

  it('keeps the VK percent a whole number from 0 to 100', async () => {
    await server.call('POST', '/vk/percent', { session: admin, body: { researchers: 12, issuers: 8 } });
    for (const [body, field, message] of [
      [{ researchers: 101, issuers: 8 }, 'researchers', 'At most 100'],
      [{ researchers: 12, issuers: -1 }, 'issuers', 'This field must be a positive number'],
      [{ researchers: 12.5, issuers: 8 }, 'researchers', 'This field must be a number'],
      [{ researchers: 12 }, 'issuers', 'This field is required'],
    ] as const) {
      const res = await server.call('POST', '/vk/percent', { session: admin, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`${field}: ${message}`);
    }
    expect((await server.call('GET', '/vk/percent', { session: admin })).body).toEqual({
      researchers: 12,
      issuers: 8,
    });
  });
});
