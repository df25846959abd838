import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNextSnapshot } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  adminTargets,
  GameStatus,
  gameStatusMachine,
  nextGameStatus,
  type GameStatusEvent,
  type GameStatusId,
} from '../../src/domain/gameStatus';
import { Role } from '../../src/domain/roles';
import { startServer, type Session, type TestServer } from '../server/helpers';

// The game-status machine of src/domain is the model; the real server is the system under test.
// For every state the machine can reach (with its context) and every event, a test walks the
// shortest path there on a fresh game through the real calls (the SDK handshake, the
// Administrator's PUT /game, new secrets), then sends the event and checks that the server did
// exactly what the machine says: moved, stayed, or refused with the right status code.

const STATUS_OF_STATE: Record<string, GameStatusId> = {
  awaitingSdk: GameStatus.AwaitingSdk,
  sdkConnected: GameStatus.SdkConnected,
  onModeration: GameStatus.OnModeration,
  connected: GameStatus.Connected,
  disabled: GameStatus.Disabled,
};

/** The status each Administrator event asks PUT /game for. */
const TARGET_OF_EVENT: Partial<Record<GameStatusEvent['type'], GameStatusId>> = {
  'status.moderate': GameStatus.OnModeration,
  'status.connect': GameStatus.Connected,
  'status.reject': GameStatus.SdkConnected,
  'status.disable': GameStatus.Disabled,
  'status.reopen': GameStatus.AwaitingSdk,
};

const EVENT_TYPES = [
  'sdk.connect',
  'status.moderate',
  'status.connect',
  'status.reject',
  'status.disable',
  'status.reopen',
  'secrets.regenerate',
] as const;

type Snap = ReturnType<typeof gameStatusMachine.resolveState>;

let server: TestServer;
let admin: Session;
let issuer: Session;
let lookups: { genreId: number; platformId: number; currencyId: number };
let counter = 0;

// Per test: the game under test, its current secrets, and the model's state before the next event.
let gameId = 0;
let secrets = { apiKey: '', token: '' };
let before: Snap;

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
  issuer = await server.as(Role.Issuer);
  const get = async (p: string) => (await server.call('GET', p, { session: issuer })).body[0].id as number;
  lookups = {
    genreId: await get('/games/genres'),
    platformId: await get('/games/platforms'),
    currencyId: await get('/games/currencies'),
  };
});
afterAll(async () => {
  await server?.close();
});

async function newGame() {
  const res = await server.call('POST', '/games', {
    session: issuer,
    body: { name: `Model game ${++counter}`, url: 'https://example.com/g', ...lookups },
  });
  expect(res.status).toBe(201);
  gameId = res.body.game.id;
  secrets = res.body.secrets;
}

async function serverGame() {
  const res = await server.call(
    'GET',
    `/games?search=${encodeURIComponent(`Model game ${counter}`)}&pageSize=100`,
    { session: admin },
  );
  return res.body.find((g: { id: number }) => g.id === gameId) as {
    statusId: number;
    sdkConnectedAt: number | null;
  };
}

/** Sends one model event to the server and checks the answer the machine predicts from `before`. */
async function drive(event: GameStatusEvent) {
  const allowed = before.can(event);
  const status = STATUS_OF_STATE[before.value as string];
  if (event.type === 'sdk.connect') {
    const res = await server.call('POST', '/games/sdk', { body: secrets });
    // A disabled game is refused; past the handshake it is only a sign of life.
    expect(res.status).toBe(status === GameStatus.Disabled ? 403 : 200);
    return;
  }
  if (event.type === 'secrets.regenerate') {
    const res = await server.call('POST', '/game/secrets', { session: issuer, body: { gameId } });
    expect(res.status).toBe(200);
    secrets = res.body.secrets;
    return;
  }
  const target = TARGET_OF_EVENT[event.type]!;
  const res = await server.call('PUT', '/game', { session: admin, body: { gameId, statusId: target } });
  // Asking for the status the game already has changes nothing and is no error.
  expect(res.status, `${before.value as string} --${event.type}-->`).toBe(
    allowed || target === status ? 200 : 409,
  );
}

const states = Object.fromEntries(
  Object.entries(STATUS_OF_STATE).map(([state, statusId]) => [
    state,
    async (snap: Snap) => {
      before = snap;
      const game = await serverGame();
      expect(game.statusId).toBe(statusId);
      expect(game.sdkConnectedAt !== null).toBe(snap.context.sdkConnected);
    },
  ]),
);

const events = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, () => drive({ type } as GameStatusEvent)]),
);

const model = createTestModel(gameStatusMachine);

describe('game status on the server follows the machine', () => {
  // One shortest path per reachable state (status and context): the quickest way to every edge.
  const byState = new Map<string, ReturnType<typeof model.getShortestPaths>[number]>();
  for (const p of model.getShortestPaths({ allowDuplicatePaths: true })) {
    const key = `${String(p.state.value)}:${p.state.context.sdkConnected}`;
    if (!byState.has(key) || byState.get(key)!.steps.length > p.steps.length) byState.set(key, p);
  }
  const paths = [...byState.values()];
  it('reaches every status, and disabled both with and without an SDK connection', () => {
    const reached = new Set(paths.map((p) => `${String(p.state.value)}:${p.state.context.sdkConnected}`));
    expect([...reached].sort()).toEqual(
      [
        'awaitingSdk:false',
        'connected:true',
        'disabled:false',
        'disabled:true',
        'onModeration:true',
        'sdkConnected:true',
      ].sort(),
    );
  });

  for (const path of paths) {
    for (const type of EVENT_TYPES) {
      it(`${path.description}, then ${type}`, async () => {
        await newGame();
        await path.test({ states, events });
        const next = getNextSnapshot(gameStatusMachine, path.state, { type } as GameStatusEvent);
        await drive({ type } as GameStatusEvent);
        await states[next.value as string](next);
      });
    }
  }
});

describe('the pure helpers agree with the documented table', () => {
  // docs/decisions/games-pricing.md, "Game statuses": written out here independently of the machine.
  const TABLE: [GameStatusId, boolean, GameStatusId[]][] = [
    [1, false, [5]],
    [2, true, [3, 5]],
    [3, true, [4, 2, 5]],
    [4, true, [3, 5]],
    [5, true, [3]],
    [5, false, [1]],
  ];
  it.each(TABLE)(
    'from status %i (SDK connected before: %s) the Administrator may choose %j',
    (status, sdkConnected, targets) => {
      expect(
        adminTargets(status, { sdkConnected })
          .map((t) => t.status)
          .sort(),
      ).toEqual([...targets].sort());
    },
  );

  it('lets only the SDK connect a game, and only one awaiting it', () => {
    expect(nextGameStatus(1, { sdkConnected: false }, { type: 'sdk.connect' })).toEqual({
      status: 2,
      context: { sdkConnected: true },
    });
    for (const s of [2, 3, 4, 5] as GameStatusId[])
      expect(nextGameStatus(s, { sdkConnected: true }, { type: 'sdk.connect' })).toBeNull();
  });

  it('sends a game that had only proven its old secrets back to awaiting the handshake', () => {
    expect(nextGameStatus(2, { sdkConnected: true }, { type: 'secrets.regenerate' })).toEqual({
      status: 1,
      context: { sdkConnected: false },
    });
    expect(nextGameStatus(4, { sdkConnected: true }, { type: 'secrets.regenerate' })).toBeNull();
  });
});
