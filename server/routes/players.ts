import type { FastifyInstance } from 'fastify';
import {
  PlayerBody,
  PlayerQuery,
  STATS_MAX_DAYS,
  StatsQuery,
  dayNumber,
  DAY_MS,
  type GameStats,
  type PlayerErasure,
  type PlayerRecord,
} from '../../src/domain/players';
import { Role } from '../../src/domain/roles';
import { audit } from '../http/audit';
import { requireRole } from '../http/context';
import { badRequest, notFound } from '../http/errors';
import { parse } from '../http/validate';
import { gameFor } from '../repos/games';
import { erasePlayer, findPlayer } from '../players/record';
import { gameStats } from '../players/stats';

// A game's players' records and its numbers (issue 24, parts 2 and 3). The game's Issuer (its
// organization's) and the Administrator; another organization's game is 404, as everywhere on games.

export default async function playerRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/games/player', async (req): Promise<PlayerRecord> => {
    const user = requireRole(req, Role.Administrator, Role.Issuer);
    const q = parse(PlayerQuery, req.query);
    const game = await gameFor(db, user, q.gameId, req.locale);
    const record = await findPlayer(db, game.id, q.playerId);
    if (!record) throw notFound((t) => t.players.errors.playerNotFound());
    return record;
  });

  // A publisher honours an erasure request: the record goes, the player id leaves their respondents
  // (their answers stay, anonymous). Calling it again changes nothing and says so.
  app.delete('/games/player', async (req): Promise<PlayerErasure> => {
    const user = requireRole(req, Role.Administrator, Role.Issuer);
    const body = parse(PlayerBody, req.body);
    const game = await gameFor(db, user, body.gameId, req.locale);
    const erased = await erasePlayer(db, game.id, body.playerId);
    // The log names the game, never the player id: the entry must not keep what was erased.
    await audit(req, {
      chapter: 'games',
      message: 'players.log.erased',
      params: { name: game.name, respondents: erased.respondents },
    });
    return erased;
  });

  app.get('/games/stats', async (req): Promise<GameStats> => {
    const user = requireRole(req, Role.Administrator, Role.Issuer);
    const q = parse(StatsQuery, req.query);
    const game = await gameFor(db, user, q.gameId, req.locale);
    // Without dates: the last 30 days up to today (UTC); with one of them, 30 days from or to it.
    const today = Math.floor(Date.now() / DAY_MS);
    const to = q.to ? dayNumber(q.to) : q.from ? dayNumber(q.from) + 29 : today;
    const from = q.from ? dayNumber(q.from) : to - 29;
    if (to < from || to - from + 1 > STATS_MAX_DAYS)
      throw badRequest((t) => t.players.errors.range({ max: STATS_MAX_DAYS }), { field: 'from' });
    return gameStats(db, game.id, from, to);
  });
}
