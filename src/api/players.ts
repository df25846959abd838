import { api } from './client';
import type { GameStats, PlayerErasure, PlayerRecord } from '../domain/players';

// Game players' records and a game's numbers (issue 24; docs/api.md).

export const getGameStats = (q: { gameId: number; from?: string; to?: string }, signal?: AbortSignal) =>
  api.get<GameStats>('/games/stats', { query: q, signal });
export const getPlayer = (gameId: number, playerId: string) =>
  api.get<PlayerRecord>('/games/player', { query: { gameId, playerId } });
export const erasePlayer = (gameId: number, playerId: string) =>
  api.del<PlayerErasure>('/games/player', { gameId, playerId });
