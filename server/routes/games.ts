import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  GameCreateBody,
  GameIdBody,
  GameIdQuery,
  GamesQuery,
  GameUpdateBody,
  LookupCreateBody,
  SdkHandshakeBody,
  type GameWithSecrets,
  type SdkHandshakeAnswer,
} from '../../src/domain/games';
import { adminEventFor, GameStatus, nextGameStatus, type GameStatusId } from '../../src/domain/gameStatus';
import { can } from '../../src/domain/permissions';
import { Role } from '../../src/domain/roles';
import type { User } from '../../src/domain/user';
import type { Db } from '../db';
import { audit } from '../http/audit';
import { requireRole } from '../http/context';
import { sessionRead } from '../http/session-read';
import { PAGE_COMPRESSION } from '../http/compression';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
  unauthorized,
  type Text,
} from '../http/errors';
import { hit, peek } from '../http/ratelimit';
import { parse } from '../http/validate';
import {
  createLookup,
  findGame,
  gameBySecrets,
  gameFor,
  listCurrencies,
  listGames,
  listLookup,
  lookupExists,
  newSecrets,
  type LookupTable,
} from '../repos/games';

const HOUR = 3600_000;
/** Failed SDK handshakes allowed per address and hour: plenty for a misconfigured game, not for guessing. */
const SDK_FAILURES_PER_HOUR = 60;

const STATUS_LOG_KEY: Record<GameStatusId, string> = {
  1: 'games.log.status1',
  2: 'games.log.status2',
  3: 'games.log.status3',
  4: 'games.log.status4',
  5: 'games.log.status5',
};

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

const fieldError = (field: string, text: Text) => badRequest(text, { field });

/** Genre, platform and currency must name rows that exist: a 400 naming the field otherwise. */
async function checkLookups(db: Db, body: { genreId?: number; platformId?: number; currencyId?: number }) {
  if (body.genreId !== undefined && !(await lookupExists(db, 'game_genres', body.genreId)))
    throw fieldError('genreId', (t) => t.games.errors.unknownGenre());
  if (body.platformId !== undefined && !(await lookupExists(db, 'game_platforms', body.platformId)))
    throw fieldError('platformId', (t) => t.games.errors.unknownPlatform());
  if (body.currencyId !== undefined && !(await lookupExists(db, 'game_currencies', body.currencyId)))
    throw fieldError('currencyId', (t) => t.games.errors.unknownCurrency());
}

async function nameTaken(db: Db, organizationId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('games')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name_norm', '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

const nameConflict = () =>
  conflict((t) => t.games.errors.nameTaken(), { field: 'name', code: 'game-name-taken' });

/** The organization a new game belongs to: an Issuer's own; the one an Administrator names. */
async function organizationForNewGame(db: Db, user: User, requested: number | undefined): Promise<number> {
  if (user.role.id === Role.Issuer) {
    if (!user.organization)
      throw conflict((t) => t.games.errors.noOrganization(), { code: 'no-organization' });
    if (requested !== undefined && requested !== user.organization.id)
      throw fieldError('organizationId', (t) => t.games.errors.ownOrganizationOnly());
    return user.organization.id;
  }
  if (requested === undefined)
    throw fieldError('organizationId', (t) =>
      t.errors.fieldError({ field: 'organizationId', reason: t.validation.required() }),
    );
  const org = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', requested)
    .executeTakeFirst();
  if (!org) throw fieldError('organizationId', (t) => t.games.errors.unknownOrganization());
  return org.id;
}

function readersOfGames(req: FastifyRequest): User {
  return requireRole(req, Role.Administrator, Role.Issuer);
}

// The game registry: games of an organization, their lookups, secrets and the SDK handshake.
export default async function gamesRoutes(app: FastifyInstance) {
  const { db } = app;

  // ---- lookups ----

  const lookupRoutes = (path: string, table: LookupTable, kind: 'genre' | 'platform') => {
    app.get(path, async (req, reply) => {
      readersOfGames(req);
      const items = await listLookup(db, table, req.locale);
      reply.header('x-total-count', items.length);
      return items;
    });
    app.post(path, async (req, reply) => {
      const user = readersOfGames(req);
      if (kind === 'platform' && !can(user.role.id, 'games.create-platform')) throw forbidden();
      const { name } = parse(LookupCreateBody, req.body);
      let item;
      try {
        item = await createLookup(db, table, name);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        item = null;
      }
      if (!item) {
        throw conflict(
          (t) => (kind === 'genre' ? t.games.errors.genreExists() : t.games.errors.platformExists()),
          {
            field: 'name',
            code: `${kind}-exists`,
          },
        );
      }
      await audit(req, {
        chapter: 'games',
        message: kind === 'genre' ? 'games.log.genreCreated' : 'games.log.platformCreated',
        params: { name },
      });
      return reply.status(201).send(item);
    });
  };
  lookupRoutes('/games/genres', 'game_genres', 'genre');
  lookupRoutes('/games/platforms', 'game_platforms', 'platform');

  app.get('/games/currencies', async (req, reply) => {
    readersOfGames(req);
    const items = await listCurrencies(db, req.locale);
    reply.header('x-total-count', items.length);
    return items;
  });

  // ---- games ----

  app.get('/games', {
    compress: PAGE_COMPRESSION,
    ...sessionRead(async (req, reply, probe) => {
      const user = readersOfGames(req);
      const q = parse(GamesQuery, req.query);
      let organizationId: number | null;
      if (user.role.id === Role.Administrator) organizationId = q.oid === 0 ? null : q.oid;
      else {
        // An Issuer's oid is 0 or their own organization; another one is as good as nonexistent.
        if (q.oid !== 0 && q.oid !== user.organization?.id) throw notFound();
        organizationId = user.organization?.id ?? -1;
      }
      const { rows, total } = await listGames(db, { ...q, organizationId, locale: req.locale }, probe);
      reply.header('x-total-count', total);
      return rows;
    }),
  });

  // Not in the spec's list: one game, so the connection dialog can watch for the SDK's handshake
  // without reloading a whole page of the list.
  app.get('/game', async (req) => {
    const user = readersOfGames(req);
    const { gameId } = parse(GameIdQuery, req.query);
    return gameFor(db, user, gameId, req.locale);
  });

  app.post('/games', async (req, reply) => {
    const user = readersOfGames(req);
    const body = parse(GameCreateBody, req.body);
    const organizationId = await organizationForNewGame(db, user, body.organizationId);
    await checkLookups(db, body);
    const { secrets, columns } = newSecrets();
    const now = Date.now();
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        if (await nameTaken(trx, organizationId, body.name)) throw nameConflict();
        const row = await trx
          .insertInto('games')
          .values({
            name: body.name,
            name_norm: body.name.toLowerCase(),
            organization_id: organizationId,
            genre_id: body.genreId,
            platform_id: body.platformId,
            currency_id: body.currencyId,
            status: GameStatus.AwaitingSdk,
            url: body.url,
            ...columns,
            sdk_connected_at: null,
            last_sdk_at: null,
            created_by: user.id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameConflict();
      throw err;
    }
    await audit(req, { chapter: 'games', message: 'games.log.created', params: { name: body.name } });
    const answer: GameWithSecrets = { game: (await findGame(db, id, req.locale))!, secrets };
    return reply.status(201).send(answer);
  });

  app.put('/game', async (req) => {
    const user = readersOfGames(req);
    const body = parse(GameUpdateBody, req.body);
    const game = await gameFor(db, user, body.gameId, req.locale);
    const statusChange =
      body.statusId !== undefined && body.statusId !== game.statusId ? (body.statusId as GameStatusId) : null;
    if (statusChange !== null && user.role.id !== Role.Administrator) throw forbidden();
    const event =
      statusChange !== null
        ? adminEventFor(game.statusId, statusChange, { sdkConnected: game.sdkConnectedAt !== null })
        : null;
    if (statusChange !== null && !event) {
      throw conflict((t) => t.games.errors.statusRefused(), {
        field: 'statusId',
        code: 'game-status-refused',
      });
    }
    await checkLookups(db, body);
    const name = body.name ?? game.name;
    try {
      await db.transaction().execute(async (trx) => {
        if (body.name !== undefined && (await nameTaken(trx, game.organization.id, body.name, game.id)))
          throw nameConflict();
        let q = trx
          .updateTable('games')
          .set({
            ...(body.name !== undefined && { name: body.name, name_norm: body.name.toLowerCase() }),
            ...(body.genreId !== undefined && { genre_id: body.genreId }),
            ...(body.platformId !== undefined && { platform_id: body.platformId }),
            ...(body.currencyId !== undefined && { currency_id: body.currencyId }),
            ...(body.url !== undefined && { url: body.url }),
            ...(statusChange !== null && { status: statusChange }),
            updated_at: Date.now(),
          })
          .where('id', '=', game.id);
        // The status moves only from the one the machine was asked about: a concurrent change wins
        // and this call answers 409 instead of jumping over it.
        if (statusChange !== null) q = q.where('status', '=', game.statusId);
        const result = await q.executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw conflict();
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameConflict();
      throw err;
    }
    const edited = ['name', 'genreId', 'platformId', 'currencyId', 'url'].some(
      (k) => (body as Record<string, unknown>)[k] !== undefined,
    );
    if (edited) await audit(req, { chapter: 'games', message: 'games.log.updated', params: { name } });
    if (statusChange !== null)
      await audit(req, { chapter: 'games', message: STATUS_LOG_KEY[statusChange], params: { name } });
    return (await findGame(db, game.id, req.locale))!;
  });

  app.delete('/game', async (req) => {
    const user = readersOfGames(req);
    const { gameId } = parse(GameIdBody, req.body);
    const game = await gameFor(db, user, gameId, req.locale);
    await db.deleteFrom('games').where('id', '=', game.id).execute();
    await audit(req, { chapter: 'games', message: 'games.log.deleted', params: { name: game.name } });
    return { ok: true };
  });

  // Not in the spec's list: new secrets when the old ones leaked or were lost. Shown once, like at
  // creation. A game that had only proven the old secrets goes back to awaiting the handshake.
  app.post('/game/secrets', async (req) => {
    const user = readersOfGames(req);
    const { gameId } = parse(GameIdBody, req.body);
    const game = await gameFor(db, user, gameId, req.locale);
    const next = nextGameStatus(
      game.statusId,
      { sdkConnected: game.sdkConnectedAt !== null },
      { type: 'secrets.regenerate' },
    );
    const { secrets, columns } = newSecrets();
    await db
      .updateTable('games')
      .set({
        ...columns,
        ...(next && {
          status: next.status,
          sdk_connected_at: next.context.sdkConnected ? game.sdkConnectedAt : null,
        }),
        updated_at: Date.now(),
      })
      .where('id', '=', game.id)
      .execute();
    await audit(req, {
      chapter: 'games',
      message: 'games.log.secretsRegenerated',
      params: { name: game.name },
    });
    const answer: GameWithSecrets = { game: (await findGame(db, game.id, req.locale))!, secrets };
    return answer;
  });

  // ---- the SDK handshake ----

  // Called by a game's SDK, not by a signed-in person: the key and the token are the credentials.
  app.post('/games/sdk', async (req) => {
    const failKey = `sdk:ip:${req.ip}`;
    const failures = await peek(db, failKey, HOUR);
    if (failures.count >= SDK_FAILURES_PER_HOUR) {
      const minutes = Math.max(1, Math.ceil(failures.retryInMs / 60_000));
      throw new HttpError(429, (t) => t.errors.tooManyRequests({ minutes }), {
        code: 'too-many-attempts',
        headers: { 'retry-after': String(Math.ceil(failures.retryInMs / 1000)) },
      });
    }
    const body = parse(SdkHandshakeBody, req.body);
    const game = await gameBySecrets(db, body.apiKey, body.token);
    if (!game) {
      await hit(db, failKey, HOUR);
      throw unauthorized((t) => t.games.errors.wrongSecrets(), { code: 'wrong-sdk-credentials' });
    }
    if (game.status === GameStatus.Disabled) {
      throw new HttpError(403, (t) => t.games.errors.disabled(), { code: 'game-disabled' });
    }
    const now = Date.now();
    const next = nextGameStatus(
      game.status as GameStatusId,
      { sdkConnected: game.sdk_connected_at !== null },
      { type: 'sdk.connect' },
    );
    const connected = await db.transaction().execute(async (trx) => {
      if (next) {
        // The condition on the old status makes two concurrent handshakes record one connection.
        const moved = await trx
          .updateTable('games')
          .set({ status: next.status, sdk_connected_at: now, last_sdk_at: now })
          .where('id', '=', game.id)
          .where('status', '=', game.status)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) > 0) return true;
      }
      // Already past the handshake: the call only records that the SDK is alive.
      await trx.updateTable('games').set({ last_sdk_at: now }).where('id', '=', game.id).execute();
      return false;
    });
    // Only the connection is logged: a game's SDK calls this on every launch.
    if (connected) {
      await audit(req, {
        chapter: 'games',
        message: 'games.log.sdkConnected',
        params: { name: game.name },
        actor: { id: null, email: '', organization: game.org_name },
      });
    }
    const fresh = await db
      .selectFrom('games')
      .select(['status', 'sdk_connected_at'])
      .where('id', '=', game.id)
      .executeTakeFirstOrThrow();
    const answer: SdkHandshakeAnswer = {
      gameId: game.id,
      statusId: fresh.status as GameStatusId,
      sdkConnectedAt: fresh.sdk_connected_at,
    };
    return answer;
  });
}
