import type { FastifyInstance } from 'fastify';
import {
  CalculatorBody,
  TariffBody,
  TariffIdBody,
  TariffsQuery,
  TariffUpdateBody,
  VkPercentBody,
} from '../../src/domain/pricing';
import { Role } from '../../src/domain/roles';
import { audit } from '../http/audit';
import { requireRole } from '../http/context';
import { conflict, notFound } from '../http/errors';
import { parse } from '../http/validate';
import {
  createTariff,
  findTariff,
  listTariffs,
  readCalculator,
  readVkPercent,
  updateTariff,
  writeCalculator,
  writeVkPercent,
} from '../repos/tariffs';

/**
 * Who may read the price list: the Administrator, and the roles that build or review projects,
 * because the editor shows them the same estimate. Issuers have no use for it.
 */
// The pricing settings are the Administrator's alone (spec section 6), to read as well as to change
// (issue #17: other roles used to read them). The editor's estimate comes from a per-project call
// that answers the derived figures, never the settings.
const PRICE_READERS = [Role.Administrator] as const;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

const nameTaken = () =>
  conflict((t) => t.pricing.errors.tariffExists(), { field: 'name', code: 'tariff-exists' });

// Tariffs (discounts), the calculator's settings and the VK percent. Changing any of them is the
// Administrator's alone.
export default async function tariffsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/tariffs', async (req, reply) => {
    requireRole(req, Role.Administrator);
    const q = parse(TariffsQuery, req.query);
    const { rows, total } = await listTariffs(db, q);
    reply.header('x-total-count', total);
    return rows;
  });

  app.post('/tariffs', async (req, reply) => {
    const me = requireRole(req, Role.Administrator);
    const body = parse(TariffBody, req.body);
    let tariff;
    try {
      tariff = await createTariff(db, body, me.id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      tariff = null;
    }
    if (!tariff) throw nameTaken();
    await audit(req, {
      chapter: 'pricing',
      message: 'pricing.log.tariffCreated',
      params: { name: tariff.name, discount: tariff.discount },
    });
    return reply.status(201).send(tariff);
  });

  // Not in the spec's list (it names GET and POST /tariffs only): changing and deleting one tariff,
  // shaped like PUT and DELETE /game.
  app.put('/tariff', async (req) => {
    requireRole(req, Role.Administrator);
    const { tariffId, ...body } = parse(TariffUpdateBody, req.body);
    let result;
    try {
      result = await updateTariff(db, tariffId, body);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      result = 'taken' as const;
    }
    if (result === 'gone') throw notFound((t) => t.pricing.errors.tariffNotFound());
    if (result === 'taken') throw nameTaken();
    await audit(req, {
      chapter: 'pricing',
      message: 'pricing.log.tariffUpdated',
      params: { name: result.name, discount: result.discount },
    });
    return result;
  });

  app.delete('/tariff', async (req) => {
    requireRole(req, Role.Administrator);
    const { tariffId } = parse(TariffIdBody, req.body);
    const tariff = await findTariff(db, tariffId);
    if (!tariff) throw notFound((t) => t.pricing.errors.tariffNotFound());
    await db.deleteFrom('tariffs').where('id', '=', tariff.id).execute();
    await audit(req, {
      chapter: 'pricing',
      message: 'pricing.log.tariffDeleted',
      params: { name: tariff.name },
    });
    return { ok: true };
  });

  app.get('/tariffs/calculator', async (req) => {
    requireRole(req, ...PRICE_READERS);
    return readCalculator(db);
  });

  app.post('/tariffs/calculator', async (req) => {
    const me = requireRole(req, Role.Administrator);
    const body = parse(CalculatorBody, req.body);
    await writeCalculator(db, body, me.id);
    await audit(req, { chapter: 'pricing', message: 'pricing.log.calculatorChanged' });
    return readCalculator(db);
  });

  app.get('/vk/percent', async (req) => {
    requireRole(req, ...PRICE_READERS);
    return readVkPercent(db);
  });

  app.post('/vk/percent', async (req) => {
    const me = requireRole(req, Role.Administrator);
    const body = parse(VkPercentBody, req.body);
    await writeVkPercent(db, body, me.id);
    await audit(req, { chapter: 'pricing', message: 'pricing.log.vkPercentChanged', params: body });
    return readVkPercent(db);
  });
}
