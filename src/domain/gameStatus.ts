import { assign, getNextSnapshot, setup } from 'xstate';

// Game statuses of spec section 3 and the one machine that says how a game moves between them
// (docs/decisions/games-pricing.md). The server asks it which calls it accepts; the UI asks it which
// statuses the Administrator's selector offers. Nothing else decides a transition.
//
//   1 awaiting SDK ──sdk.connect──▶ 2 SDK connected ──status.moderate──▶ 3 on moderation
//   3 ──status.connect──▶ 4 connected          3 ──status.reject──▶ 2 (returned to the issuer)
//   4 ──status.moderate──▶ 3 (a second review)  1–4 ──status.disable──▶ 5 disabled
//   5 ──status.moderate──▶ 3 when the SDK connected before, ──status.reopen──▶ 1 when it never did
//   2 ──secrets.regenerate──▶ 1: the handshake proved the old secrets, so it must be made again

export const GameStatus = {
  AwaitingSdk: 1,
  SdkConnected: 2,
  OnModeration: 3,
  Connected: 4,
  Disabled: 5,
} as const;
export type GameStatusId = (typeof GameStatus)[keyof typeof GameStatus];
export const GAME_STATUS_IDS: readonly GameStatusId[] = [1, 2, 3, 4, 5];

export function isGameStatusId(n: unknown): n is GameStatusId {
  return typeof n === 'number' && (GAME_STATUS_IDS as readonly number[]).includes(n);
}

export type GameStatusEvent =
  | { type: 'sdk.connect' }
  | { type: 'status.moderate' }
  | { type: 'status.connect' }
  | { type: 'status.reject' }
  | { type: 'status.disable' }
  | { type: 'status.reopen' }
  | { type: 'secrets.regenerate' };

export interface GameStatusContext {
  /** The SDK has made the handshake with the current secrets at least once. */
  sdkConnected: boolean;
}

const STATE_OF: Record<GameStatusId, string> = {
  1: 'awaitingSdk',
  2: 'sdkConnected',
  3: 'onModeration',
  4: 'connected',
  5: 'disabled',
};

export const gameStatusMachine = setup({
  types: {
    context: {} as GameStatusContext,
    events: {} as GameStatusEvent,
    input: {} as GameStatusContext,
  },
  actions: {
    markConnected: assign({ sdkConnected: true }),
    forgetConnection: assign({ sdkConnected: false }),
  },
  guards: {
    sdkConnectedBefore: ({ context }) => context.sdkConnected,
    neverConnected: ({ context }) => !context.sdkConnected,
  },
}).createMachine({
  id: 'gameStatus',
  context: ({ input }) => ({ sdkConnected: input?.sdkConnected ?? false }),
  initial: 'awaitingSdk',
  states: {
    awaitingSdk: {
      on: {
        'sdk.connect': { target: 'sdkConnected', actions: 'markConnected' },
        'status.disable': { target: 'disabled' },
        // New secrets before any handshake: nothing to undo, the game keeps waiting.
        'secrets.regenerate': { target: 'awaitingSdk' },
      },
    },
    sdkConnected: {
      on: {
        'status.moderate': { target: 'onModeration' },
        'status.disable': { target: 'disabled' },
        'secrets.regenerate': { target: 'awaitingSdk', actions: 'forgetConnection' },
      },
    },
    onModeration: {
      on: {
        'status.connect': { target: 'connected' },
        'status.reject': { target: 'sdkConnected' },
        'status.disable': { target: 'disabled' },
      },
    },
    connected: {
      on: {
        'status.moderate': { target: 'onModeration' },
        'status.disable': { target: 'disabled' },
      },
    },
    disabled: {
      on: {
        'status.moderate': { target: 'onModeration', guard: 'sdkConnectedBefore' },
        'status.reopen': { target: 'awaitingSdk', guard: 'neverConnected' },
      },
    },
  },
});

function snapshotOf(status: GameStatusId, ctx: GameStatusContext) {
  return gameStatusMachine.resolveState({ value: STATE_OF[status], context: { ...ctx } });
}

function statusOfState(value: unknown): GameStatusId {
  const entry = Object.entries(STATE_OF).find(([, name]) => name === value);
  return Number(entry![0]) as GameStatusId;
}

/** Where the event takes a game, or null when the machine refuses it in that status. */
export function nextGameStatus(
  status: GameStatusId,
  ctx: GameStatusContext,
  event: GameStatusEvent,
): { status: GameStatusId; context: GameStatusContext } | null {
  const before = snapshotOf(status, ctx);
  if (!before.can(event)) return null;
  const after = getNextSnapshot(gameStatusMachine, before, event);
  return { status: statusOfState(after.value), context: after.context };
}

/** The Administrator's events, keyed by the status each one leads to from a given status. */
const ADMIN_EVENTS: GameStatusEvent['type'][] = [
  'status.moderate',
  'status.connect',
  'status.reject',
  'status.disable',
  'status.reopen',
];

/**
 * The statuses the Administrator may move a game to now, with the event that does it. The
 * selector offers these (and the current status); PUT /game accepts exactly these.
 */
export function adminTargets(
  status: GameStatusId,
  ctx: GameStatusContext,
): { status: GameStatusId; event: GameStatusEvent }[] {
  const out: { status: GameStatusId; event: GameStatusEvent }[] = [];
  for (const type of ADMIN_EVENTS) {
    const event = { type } as GameStatusEvent;
    const next = nextGameStatus(status, ctx, event);
    if (next && next.status !== status) out.push({ status: next.status, event });
  }
  return out;
}

/** The event that moves a game from `from` to `to` on the Administrator's request, or null. */
export function adminEventFor(
  from: GameStatusId,
  to: GameStatusId,
  ctx: GameStatusContext,
): GameStatusEvent | null {
  return adminTargets(from, ctx).find((t) => t.status === to)?.event ?? null;
}
