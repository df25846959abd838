import { api } from './client';
import type {
  Currency,
  Game,
  GameCreateBody,
  GameUpdateBody,
  GameWithSecrets,
  LookupItem,
} from '../domain/games';

// The game registry (spec section 7, Games). GET /games is a paged list: pages read it with useList.

export const GAMES_PATH = '/games';

export const getGenres = () => api.get<LookupItem[]>('/games/genres');
export const getPlatforms = () => api.get<LookupItem[]>('/games/platforms');
export const getCurrencies = () => api.get<Currency[]>('/games/currencies');
export const createGenre = (name: string) => api.post<LookupItem>('/games/genres', { name });
export const createPlatform = (name: string) => api.post<LookupItem>('/games/platforms', { name });

/** Answers the new game with its API key and token in full: the only time they are shown. */
export const createGame = (body: GameCreateBody) => api.post<GameWithSecrets>('/games', body);
export const updateGame = (body: GameUpdateBody) => api.put<Game>('/game', body);
export const deleteGame = (gameId: number) => api.del<{ ok: true }>('/game', { gameId });
/** New API key and token; the old ones stop working at once. */
export const regenerateSecrets = (gameId: number) => api.post<GameWithSecrets>('/game/secrets', { gameId });
export const getGame = (gameId: number, signal?: AbortSignal) =>
  api.get<Game>('/game', { query: { gameId }, signal });
