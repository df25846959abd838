import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { computePrice } from '../../src/domain/price';

// GET /project/price: the editor's live estimate. Whoever reads the project gets the price of the
// counts sent, computed with the Administrator's settings (which the answer never contains); anyone
// else gets 404 as for the project itself; bad counts are a 400 naming the field.

let server: TestServer;
let admin: Session;
let researcher: Session;
let org: number;

const SETTINGS = {
  basePrice: 1000,
  questionSurcharge: 50,
  questionStep: 5,
  blockSurcharge: 200,
  blockProgressive: 10,
  screeningPrice: 30,
  targetFilterSurcharge: 7,
  filledBlockPrice: 3,
  completedSurveyPrice: 40,
};

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
  org = await server.createOrganization('Price Org');
  researcher = await server.as(Role.Researcher, { organizationId: org });
  const set = await server.call('POST', '/tariffs/calculator', {
    session: admin,
    body: { researchers: SETTINGS, issuers: { ...SETTINGS, basePrice: 1 } },
  });
  expect(set.status).toBe(200);
  expect(
    (await server.call('POST', '/vk/percent', { session: admin, body: { researchers: 10, issuers: 0 } }))
      .status,
  ).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const path = (pid: number, extra = '') =>
  `/project/price?pid=${pid}&questions=12&blocks=3&screening=2${extra}`;

describe('GET /project/price', () => {
  it('prices the counts with the researchers’ settings, per portrait, VK share once at the end', async () => {
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    const res = await server.call('GET', path(pid, '&portraits=300:2&portraits=100:1'), {
      session: researcher,
    });
    expect(res.status).toBe(200);
    // The same figure the calculator gives: one-off once, each portrait's respondents with its filters.
    const bare = { ...SETTINGS, vkPercent: 0 };
    const a = computePrice(bare, {
      questions: 12,
      blocks: 3,
      screening: 2,
      targetFilters: 2,
      completes: 300,
    });
    const b = computePrice(bare, {
      questions: 12,
      blocks: 3,
      screening: 2,
      targetFilters: 1,
      completes: 100,
    });
    const subtotal =
      a.subtotal +
      b.subtotal -
      (a.subtotal - a.components.completes - a.components.filledBlocks - a.components.targetFilters);
    expect(res.body.total).toBeCloseTo(subtotal * 1.1, 2);
    expect(res.body.respondents).toBe(400);
    const oneOff = 1000 + 2 * 50 + (200 + 210) + 2 * 30;
    expect(res.body.oneOff).toBeCloseTo(oneOff * 1.1, 2);
    expect(res.body.perRespondent).toBeCloseTo((res.body.total - res.body.oneOff) / 400, 2);
    // The answer is the price, not the price list.
    expect(Object.keys(res.body).sort()).toEqual(['oneOff', 'perRespondent', 'respondents', 'total']);
  });

  it('without portraits answers the price of one respondent and the one-off part', async () => {
    const pid = await insertProject(server, org);
    const res = await server.call('GET', path(pid), { session: researcher });
    expect(res.status).toBe(200);
    expect(res.body.respondents).toBe(0);
    expect(res.body.perRespondent).toBeCloseTo((40 + 3 * 3) * 1.1, 2);
    // More questions never cost less.
    const more = await server.call('GET', `/project/price?pid=${pid}&questions=40&blocks=3&screening=2`, {
      session: researcher,
    });
    expect(more.body.oneOff).toBeGreaterThan(res.body.oneOff);
  });

  it('is for those who may read the project: another organization and issuers get 404, moderators once sent', async () => {
    const pid = await insertProject(server, org);
    const stranger = await server.as(Role.Researcher);
    expect((await server.call('GET', path(pid), { session: stranger })).status).toBe(404);
    expect((await server.call('GET', path(pid), { session: await server.as(Role.Issuer) })).status).toBe(404);
    const moderator = await server.as(Role.Moderator);
    expect((await server.call('GET', path(pid), { session: moderator })).status).toBe(404);
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnModeration })
      .where('id', '=', pid)
      .execute();
    expect((await server.call('GET', path(pid), { session: moderator })).status).toBe(200);
    expect((await server.call('GET', path(pid), { session: admin })).status).toBe(200);
    expect((await server.call('GET', path(pid))).status).toBe(401);
  });

  it('refuses bad counts with a 400 naming the field, and big numbers within bounds on both databases', async () => {
    const pid = await insertProject(server, org);
    for (const [query, field] of [
      [`pid=${pid}&questions=-1&blocks=1&screening=0`, 'questions'],
      [`pid=${pid}&questions=1&blocks=x&screening=0`, 'blocks'],
      [`pid=${pid}&questions=1&blocks=1`, 'screening'],
      [`pid=${pid}&questions=1&blocks=1&screening=0&portraits=12`, 'portraits'],
      [`pid=${pid}&questions=99999999999&blocks=1&screening=0`, 'questions'],
      [`pid=99999999999&questions=1&blocks=1&screening=0`, 'pid'],
    ] as const) {
      const res = await server.call('GET', `/project/price?${query}`, { session: researcher });
      expect(res.status, query).toBe(400);
      expect(String(res.body.field), query).toContain(field);
    }
    const big = await server.call(
      'GET',
      `/project/price?pid=${pid}&questions=10000000&blocks=10000000&screening=10000000&portraits=10000000:9999`,
      {
        session: researcher,
      },
    );
    expect(big.status).toBe(200);
    expect(Number.isFinite(big.body.total)).toBe(true);
  });
});
