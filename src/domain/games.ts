import * as v from 'valibot';
import { INT32_MAX, int32Max, queryId, queryInt } from './validation';
import type { GameStatusId } from './gameStatus';

// Games (spec sections 3 and 7): the shapes the calls answer and the valibot schemas of their
// bodies and queries, shared by the server and the forms. Messages are `validation` keys.

export const GAME_NAME_MAX = 200;
export const GAME_URL_MAX = 2000;
export const LOOKUP_NAME_MAX = 100;
export const SEARCH_MAX = 200;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;

export interface LookupItem {
  id: number;
  name: string;
}

export interface Currency extends LookupItem {
  /** ISO 4217 code; `name` is its name in the caller's language. */
  code: string;
}

/** A game as GET /games answers it. The secrets are never sent again after they were made. */
export interface Game {
  id: number;
  name: string;
  genre: LookupItem;
  platform: LookupItem;
  organization: LookupItem;
  statusId: GameStatusId;
  url: string;
  currency: Currency;
  /** The API key and the token with their middle hidden, for recognising them. */
  apiKeyMasked: string;
  tokenMasked: string;
  /** When the SDK first connected with the current secrets (null: not yet). */
  sdkConnectedAt: number | null;
  /** The last successful handshake of the SDK. */
  lastSdkAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Shown once: in the answer of POST /games and POST /game/secrets. */
export interface GameSecrets {
  apiKey: string;
  token: string;
}

export interface GameWithSecrets {
  game: Game;
  secrets: GameSecrets;
}

export const SECRET_MASK = '••••••••';
export function maskSecret(prefix: string, suffix: string): string {
  return `${prefix}${SECRET_MASK}${suffix}`;
}

// ---- pieces ----

/**
 * A body that takes exactly these fields. valibot gives a missing key the object's own message, so
 * the message depends on the issue: an extra key is unknown, a missing one required.
 */
export function strictBody<const E extends v.ObjectEntries>(entries: E) {
  return v.strictObject(entries, objectMessage);
}
const objectMessage = (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never' ? 'unknownField' : issue.expected === 'Object' ? 'type' : 'required';

const id = v.pipe(v.number('required'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max);
const text = (max: number) =>
  v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'tooLong'));

/** http(s) only: a javascript: or file: address in the registry would be a trap for whoever opens it. */
export const gameUrl = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(GAME_URL_MAX, 'tooLong'),
  v.url('url'),
  v.check((s) => /^https?:\/\//i.test(s), 'url'),
);

export const GameCreateBody = strictBody({
  name: text(GAME_NAME_MAX),
  genreId: id,
  platformId: id,
  currencyId: id,
  url: gameUrl,
  /** Administrator: the organization the game belongs to. An Issuer's games are always their own. */
  organizationId: v.optional(id),
});
export type GameCreateBody = v.InferOutput<typeof GameCreateBody>;

/** PUT /game changes only the fields it carries; statusId is the Administrator's status change. */
export const GameUpdateBody = strictBody({
  gameId: id,
  name: v.optional(text(GAME_NAME_MAX)),
  genreId: v.optional(id),
  platformId: v.optional(id),
  currencyId: v.optional(id),
  url: v.optional(gameUrl),
  statusId: v.optional(v.pipe(id, v.maxValue(5, 'tooBig'))),
});
export type GameUpdateBody = v.InferOutput<typeof GameUpdateBody>;

export const GameIdBody = strictBody({ gameId: id });
export const GameIdQuery = v.object({ gameId: queryId });

export const LookupCreateBody = strictBody({ name: text(LOOKUP_NAME_MAX) });

/** What a game's SDK sends to POST /games/sdk. Sizes are bounded before anything is hashed. */
export const SdkHandshakeBody = v.object(
  {
    apiKey: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
    token: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
  },
  // Extra fields (an SDK version, say) are allowed: a newer SDK must not break an older server.
  objectMessage,
);

export interface SdkHandshakeAnswer {
  gameId: number;
  statusId: GameStatusId;
  sdkConnectedAt: number | null;
}

// ---- list queries (page, pageSize, search, sort, order) ----

/** A whole number from the query, `fallback` when it is not given. */
const optionalInt = (min: number, max: number, fallback: number) =>
  v.optional(queryInt(min, max), String(fallback));

/** The query of every list call; unknown sort keys are refused rather than silently ignored. */
export function listQuery<const K extends string, E extends v.ObjectEntries = Record<never, never>>(
  sortKeys: readonly [K, ...K[]],
  extra?: E,
) {
  return v.object({
    page: optionalInt(1, Number.MAX_SAFE_INTEGER, 1),
    pageSize: optionalInt(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    search: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(SEARCH_MAX, 'tooLong')), ''),
    sort: v.optional(v.picklist(sortKeys, 'invalid')),
    order: v.optional(v.picklist(['asc', 'desc'], 'invalid'), 'asc'),
    ...(extra as E),
  });
}

export const GAME_SORT_KEYS = [
  'name',
  'genre',
  'platform',
  'organization',
  'status',
  'url',
  'currency',
  'createdAt',
] as const;
export type GameSortKey = (typeof GAME_SORT_KEYS)[number];

/** oid: 0 (the default) means "mine" for an Issuer and "all" for an Administrator (spec 9). */
export const GamesQuery = listQuery(GAME_SORT_KEYS, { oid: optionalInt(0, INT32_MAX, 0) });
export type GamesQuery = v.InferOutput<typeof GamesQuery>;

/** Escapes LIKE wildcards so a search for "50%" finds "50%" and not everything. */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
