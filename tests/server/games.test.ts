import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role, type RoleId } from '../../src/domain/roles';
import { GameStatus } from '../../src/domain/gameStatus';

// The game registry on the real server: who may call what, organization isolation, the SDK
// handshake with right and wrong secrets, status changes through the machine, and validation.

let server: TestServer;
let admin: Session;
let issuer: Session;
let otherIssuer: Session;
let lookups: { genreId: number; platformId: number; currencyId: number };

const gameBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  ...lookups,
  url: 'https://example.com/game',
  ...extra,
});

async function createGame(session: Session, name: string, extra: Record<string, unknown> = {}) {
  const res = await server.call('POST', '/games', { session, body: gameBody(name, extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as {
    game: { id: number; statusId: number; apiKeyMasked: string; tokenMasked: string };
    secrets: { apiKey: string; token: string };
  };
}

async function gameRow(id: number) {
  return server.app.db.selectFrom('games').selectAll().where('id', '=', id).executeTakeFirst();
}

async function historyCount(messageKey: string) {
  const r = await server.app.db
    .selectFrom('history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('message_key', '=', messageKey)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
  issuer = await server.as(Role.Issuer);
  otherIssuer = await server.as(Role.Issuer);
  const [genres, platforms, currencies] = await Promise.all(
    ['/games/genres', '/games/platforms', '/games/currencies'].map((p) =>
      server.call('GET', p, { session: issuer }),
    ),
  );
  lookups = {
    genreId: genres.body[0].id,
    platformId: platforms.body[0].id,
    currencyId: currencies.body.find((c: { code: string }) => c.code === 'RUB').id,
  };
});
afterAll(async () => {
  await server?.close();
});

describe('who may call what', () => {
  const roles: RoleId[] = [
    Role.Administrator,
    Role.Moderator,
    Role.ModeratorVK,
    Role.Researcher,
    Role.Issuer,
    Role.DemoResearcher,
  ];

  it('lets only Administrators and Issuers use the registry; platforms are the Administrator’s', async () => {
    for (const role of roles) {
      const s = await server.as(role);
      const allowed = role === Role.Administrator || role === Role.Issuer;
      const expectRead = allowed ? 200 : 403;
      for (const path of ['/games', '/games/genres', '/games/platforms', '/games/currencies']) {
        expect((await server.call('GET', path, { session: s })).status, `${role} GET ${path}`).toBe(
          expectRead,
        );
      }
      const genre = await server.call('POST', '/games/genres', {
        session: s,
        body: { name: `Genre of role ${role}` },
      });
      expect(genre.status, `${role} POST genre`).toBe(allowed ? 201 : 403);
      const platform = await server.call('POST', '/games/platforms', {
        session: s,
        body: { name: `Platform of role ${role}` },
      });
      expect(platform.status, `${role} POST platform`).toBe(role === Role.Administrator ? 201 : 403);

      const extra = role === Role.Administrator ? { organizationId: s.user.organization!.id } : {};
      const created = await server.call('POST', '/games', {
        session: s,
        body: gameBody(`Game of role ${role}`, extra),
      });
      expect(created.status, `${role} POST /games`).toBe(allowed ? 201 : 403);

      // Calls on one existing game: the issuer's game, seen by each role.
      const target = (await createGame(issuer, `Target for role ${role}`)).game.id;
      // s is a new user of another organization: an Issuer there does not see the game at all.
      const expectOne = role === Role.Administrator ? 200 : role === Role.Issuer ? 404 : 403;
      expect(
        (await server.call('GET', `/game?gameId=${target}`, { session: s })).status,
        `${role} GET one`,
      ).toBe(expectOne);
      expect(
        (await server.call('PUT', '/game', { session: s, body: { gameId: target, name: `Renamed ${role}` } }))
          .status,
        `${role} PUT`,
      ).toBe(expectOne);
      expect(
        (await server.call('POST', '/game/secrets', { session: s, body: { gameId: target } })).status,
        `${role} secrets`,
      ).toBe(expectOne);
      expect(
        (await server.call('DELETE', '/game', { session: s, body: { gameId: target } })).status,
        `${role} DELETE`,
      ).toBe(expectOne);
    }
  });

  it('answers 401 to a caller who is not signed in', async () => {
    for (const [method, path] of [
      ['GET', '/games'],
      ['POST', '/games'],
      ['PUT', '/game'],
      ['DELETE', '/game'],
      ['GET', '/games/genres'],
      ['POST', '/games/genres'],
      ['POST', '/game/secrets'],
    ] as const) {
      expect(
        (await server.call(method, path, { body: method === 'GET' ? undefined : {} })).status,
        `${method} ${path}`,
      ).toBe(401);
    }
  });
});

describe('organizations are kept apart', () => {
  it('shows an Issuer only their own games, and an Administrator everyone’s', async () => {
    const mine = await createGame(issuer, 'Mine only');
    const theirs = await createGame(otherIssuer, 'Theirs only');
    const list = await server.call('GET', '/games?pageSize=100', { session: issuer });
    const ids = list.body.map((g: { id: number }) => g.id);
    expect(ids).toContain(mine.game.id);
    expect(ids).not.toContain(theirs.game.id);
    expect(
      list.body.every(
        (g: { organization: { id: number } }) => g.organization.id === issuer.user.organization!.id,
      ),
    ).toBe(true);

    // oid: their own is fine, another organization's does not exist for them.
    expect(
      (await server.call('GET', `/games?oid=${issuer.user.organization!.id}`, { session: issuer })).status,
    ).toBe(200);
    expect(
      (await server.call('GET', `/games?oid=${otherIssuer.user.organization!.id}`, { session: issuer }))
        .status,
    ).toBe(404);

    const all = await server.call('GET', '/games?pageSize=100', { session: admin });
    const allIds = all.body.map((g: { id: number }) => g.id);
    expect(allIds).toEqual(expect.arrayContaining([mine.game.id, theirs.game.id]));
    const filtered = await server.call(
      'GET',
      `/games?oid=${otherIssuer.user.organization!.id}&pageSize=100`,
      { session: admin },
    );
    expect(filtered.body.map((g: { id: number }) => g.id)).toContain(theirs.game.id);
    expect(filtered.body.map((g: { id: number }) => g.id)).not.toContain(mine.game.id);
  });

  it('refuses an Issuer who reads, changes, re-keys or deletes another organization’s game, changing nothing', async () => {
    const theirs = await createGame(otherIssuer, 'Not yours');
    const before = await gameRow(theirs.game.id);
    expect((await server.call('GET', `/game?gameId=${theirs.game.id}`, { session: issuer })).status).toBe(
      404,
    );
    expect(
      (await server.call('GET', `/game?gameId=${theirs.game.id}`, { session: otherIssuer })).body.name,
    ).toBe('Not yours');
    expect((await server.call('GET', `/game?gameId=${theirs.game.id}`, { session: admin })).status).toBe(200);
    expect((await server.call('GET', '/game?gameId=abc', { session: admin })).status).toBe(400);
    for (const [method, path, body] of [
      ['PUT', '/game', { gameId: theirs.game.id, name: 'Stolen' }],
      ['POST', '/game/secrets', { gameId: theirs.game.id }],
      ['DELETE', '/game', { gameId: theirs.game.id }],
    ] as const) {
      const res = await server.call(method, path, { session: issuer, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('Game not found');
    }
    expect(await gameRow(theirs.game.id)).toEqual(before);
  });

  it('registers an Issuer’s game in their own organization only', async () => {
    const res = await server.call('POST', '/games', {
      session: issuer,
      body: gameBody('Elsewhere', { organizationId: otherIssuer.user.organization!.id }),
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('organizationId');
    const same = await server.call('POST', '/games', {
      session: issuer,
      body: gameBody('Own org given', { organizationId: issuer.user.organization!.id }),
    });
    expect(same.status).toBe(201);
    expect(same.body.game.organization.id).toBe(issuer.user.organization!.id);
  });

  it('tells an Issuer without an organization why they cannot register a game', async () => {
    const lonely = await server.as(Role.Issuer, { organizationId: null });
    const res = await server.call('POST', '/games', { session: lonely, body: gameBody('Orphan') });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/no organization/);
    const list = await server.call('GET', '/games', { session: lonely });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });

  it('makes an Administrator say whose game it is', async () => {
    const missing = await server.call('POST', '/games', { session: admin, body: gameBody('Whose') });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('organizationId');
    expect(missing.body.message).toBe('organizationId: This field is required');
    const unknown = await server.call('POST', '/games', {
      session: admin,
      body: gameBody('Whose', { organizationId: 999_999 }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('No such organization');
    const ok = await server.call('POST', '/games', {
      session: admin,
      body: gameBody('Whose', { organizationId: issuer.user.organization!.id }),
    });
    expect(ok.status).toBe(201);
    // The issuer of that organization now sees it.
    const list = await server.call('GET', '/games?search=whose', { session: issuer });
    expect(list.body.map((g: { id: number }) => g.id)).toContain(ok.body.game.id);
  });
});

describe('secrets and the SDK handshake', () => {
  it('shows the key and token in full once, then only masked; stores neither', async () => {
    const { game, secrets } = await createGame(issuer, 'Secret keeper');
    expect(secrets.apiKey).toMatch(/^gk_[A-Za-z0-9_-]{32}$/);
    expect(secrets.token).toMatch(/^gt_[A-Za-z0-9_-]{43}$/);
    expect(game.statusId).toBe(GameStatus.AwaitingSdk);
    expect(game.apiKeyMasked.startsWith(secrets.apiKey.slice(0, 7))).toBe(true);
    expect(game.apiKeyMasked.endsWith(secrets.apiKey.slice(-4))).toBe(true);
    expect(game.apiKeyMasked).not.toContain(secrets.apiKey.slice(7, -4));
    const listed = (await server.call('GET', '/games?search=secret%20keeper', { session: issuer })).body[0];
    expect(JSON.stringify(listed)).not.toContain(secrets.apiKey);
    expect(JSON.stringify(listed)).not.toContain(secrets.token);
    expect(JSON.stringify(await gameRow(game.id))).not.toContain(secrets.token.slice(7, -4));
    expect(JSON.stringify(await gameRow(game.id))).not.toContain(secrets.apiKey.slice(7, -4));
  });

  it('connects a game with its key and token, and refuses wrong ones without changing anything', async () => {
    const { game, secrets } = await createGame(issuer, 'Handshake');
    const other = await createGame(issuer, 'Handshake neighbour');
    const before = await gameRow(game.id);
    for (const body of [
      {
        apiKey: secrets.apiKey,
        token: secrets.token.slice(0, -1) + (secrets.token.endsWith('A') ? 'B' : 'A'),
      },
      { apiKey: secrets.apiKey, token: other.secrets.token },
      { apiKey: other.secrets.apiKey, token: secrets.token },
      { apiKey: 'gk_nothing', token: secrets.token },
    ]) {
      const res = await server.call('POST', '/games/sdk', { body });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: 'Wrong API key or token', code: 'wrong-sdk-credentials' });
    }
    expect(await gameRow(game.id)).toEqual(before);
    expect((await gameRow(other.game.id))!.status).toBe(GameStatus.AwaitingSdk);

    const logged = await historyCount('games.log.sdkConnected');
    const ok = await server.call('POST', '/games/sdk', { body: secrets });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ gameId: game.id, statusId: GameStatus.SdkConnected });
    expect(ok.body.sdkConnectedAt).toBeGreaterThan(0);
    const after = await gameRow(game.id);
    expect(after!.status).toBe(GameStatus.SdkConnected);
    expect(after!.sdk_connected_at).toBe(ok.body.sdkConnectedAt);
    expect(await historyCount('games.log.sdkConnected')).toBe(logged + 1);

    // A second handshake keeps the first connection time, records the contact, logs nothing.
    await new Promise((r) => setTimeout(r, 5));
    const again = await server.call('POST', '/games/sdk', { body: secrets });
    expect(again.status).toBe(200);
    expect(again.body.sdkConnectedAt).toBe(ok.body.sdkConnectedAt);
    expect((await gameRow(game.id))!.last_sdk_at).toBeGreaterThan(ok.body.sdkConnectedAt);
    expect(await historyCount('games.log.sdkConnected')).toBe(logged + 1);

    const listed = (await server.call('GET', '/games?search=handshake&sort=name', { session: issuer }))
      .body[0];
    expect(listed.statusId).toBe(GameStatus.SdkConnected);
  });

  it('validates the handshake body', async () => {
    expect((await server.call('POST', '/games/sdk', { body: {} })).status).toBe(400);
    expect(
      (await server.call('POST', '/games/sdk', { body: { apiKey: 'x'.repeat(201), token: 't' } })).status,
    ).toBe(400);
    expect(
      (
        await server.call('POST', '/games/sdk', {
          rawBody: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
  });

  it('issues new secrets: the old ones stop working, a merely connected game must connect again', async () => {
    const { game, secrets } = await createGame(issuer, 'Rekeyed');
    expect((await server.call('POST', '/games/sdk', { body: secrets })).status).toBe(200);
    const res = await server.call('POST', '/game/secrets', { session: issuer, body: { gameId: game.id } });
    expect(res.status).toBe(200);
    expect(res.body.secrets.apiKey).not.toBe(secrets.apiKey);
    expect(res.body.game.statusId).toBe(GameStatus.AwaitingSdk);
    expect(res.body.game.sdkConnectedAt).toBeNull();
    expect((await server.call('POST', '/games/sdk', { body: secrets })).status).toBe(401);
    const fresh = await server.call('POST', '/games/sdk', { body: res.body.secrets });
    expect(fresh.status).toBe(200);
    expect(fresh.body.statusId).toBe(GameStatus.SdkConnected);
  });

  it('keeps a game on moderation where it is when its keys are re-issued', async () => {
    const { game, secrets } = await createGame(issuer, 'Rekeyed on moderation');
    await server.call('POST', '/games/sdk', { body: secrets });
    expect(
      (await server.call('PUT', '/game', { session: admin, body: { gameId: game.id, statusId: 3 } })).status,
    ).toBe(200);
    const res = await server.call('POST', '/game/secrets', { session: issuer, body: { gameId: game.id } });
    expect(res.body.game.statusId).toBe(GameStatus.OnModeration);
    expect(res.body.game.sdkConnectedAt).not.toBeNull();
  });

  it('refuses the handshake of a disabled game', async () => {
    const { game, secrets } = await createGame(issuer, 'Switched off');
    expect(
      (await server.call('PUT', '/game', { session: admin, body: { gameId: game.id, statusId: 5 } })).status,
    ).toBe(200);
    const res = await server.call('POST', '/games/sdk', { body: secrets });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('game-disabled');
    expect((await gameRow(game.id))!.status).toBe(GameStatus.Disabled);
  });

  it('limits failed handshakes per address', async () => {
    const limited = await startServer();
    try {
      for (let i = 0; i < 60; i++) {
        expect(
          (await limited.call('POST', '/games/sdk', { body: { apiKey: `gk_${i}`, token: 'gt_x' } })).status,
        ).toBe(401);
      }
      const res = await limited.call('POST', '/games/sdk', { body: { apiKey: 'gk_more', token: 'gt_x' } });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('status changes', () => {
  it('lets the Administrator move a game along the machine and refuses jumps', async () => {
    const { game, secrets } = await createGame(issuer, 'Moderated');
    const put = (statusId: number, session = admin) =>
      server.call('PUT', '/game', { session, body: { gameId: game.id, statusId } });

    const jump = await put(GameStatus.Connected);
    expect(jump.status).toBe(409);
    expect(jump.body.message).toBe('The game cannot move from its current status to the chosen one');
    expect((await put(GameStatus.SdkConnected)).status).toBe(409); // only the SDK connects a game

    await server.call('POST', '/games/sdk', { body: secrets });
    expect((await put(GameStatus.OnModeration, issuer)).status).toBe(403);
    expect((await gameRow(game.id))!.status).toBe(GameStatus.SdkConnected);

    const logged = await historyCount('games.log.status3');
    expect((await put(GameStatus.OnModeration)).body.statusId).toBe(GameStatus.OnModeration);
    expect(await historyCount('games.log.status3')).toBe(logged + 1);
    expect((await put(GameStatus.Connected)).body.statusId).toBe(GameStatus.Connected);
    expect((await put(GameStatus.Disabled)).body.statusId).toBe(GameStatus.Disabled);
    expect((await put(GameStatus.Connected)).status).toBe(409);
    expect((await put(GameStatus.OnModeration)).body.statusId).toBe(GameStatus.OnModeration);
    // Sending the current status is no change at all, for anyone who may edit the game.
    expect((await put(GameStatus.OnModeration, issuer)).status).toBe(200);
  });

  it('reopens a disabled game that never connected instead of sending it to moderation', async () => {
    const { game } = await createGame(issuer, 'Never connected');
    const put = (statusId: number) =>
      server.call('PUT', '/game', { session: admin, body: { gameId: game.id, statusId } });
    expect((await put(GameStatus.Disabled)).status).toBe(200);
    expect((await put(GameStatus.OnModeration)).status).toBe(409);
    expect((await put(GameStatus.AwaitingSdk)).body.statusId).toBe(GameStatus.AwaitingSdk);
  });
});

describe('editing, deleting and validation', () => {
  it('edits the fields it is given and leaves the rest', async () => {
    const { game } = await createGame(issuer, 'Editable');
    const genres = (await server.call('GET', '/games/genres', { session: issuer })).body;
    const res = await server.call('PUT', '/game', {
      session: issuer,
      body: { gameId: game.id, name: 'Edited', url: 'https://example.org/edited', genreId: genres[1].id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Edited',
      url: 'https://example.org/edited',
      genre: { id: genres[1].id },
    });
    expect(res.body.platform.id).toBe(lookups.platformId);
    expect(await historyCount('games.log.updated')).toBeGreaterThan(0);
  });

  it('keeps names unique within an organization, in any case', async () => {
    await createGame(issuer, 'Unique Name');
    const dup = await server.call('POST', '/games', { session: issuer, body: gameBody('unique name') });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      field: 'name',
      message: 'The organization already has a game with this name',
    });
    // Another organization may use it.
    expect(
      (await server.call('POST', '/games', { session: otherIssuer, body: gameBody('Unique Name') })).status,
    ).toBe(201);
    const second = await createGame(issuer, 'Second name');
    const rename = await server.call('PUT', '/game', {
      session: issuer,
      body: { gameId: second.game.id, name: 'UNIQUE NAME' },
    });
    expect(rename.status).toBe(409);
  });

  it('refuses every bad field with a translated 400 that names it, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('games')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'This field is required'],
      [{ name: '   ' }, 'name', 'This field is required'],
      [{ name: 'x'.repeat(201) }, 'name', 'At most 200 characters'],
      [{ name: 42 }, 'name', 'This field is required'],
      [{ url: 'not a url' }, 'url', 'Enter a valid url'],
      [{ url: 'javascript:alert(1)' }, 'url', 'Enter a valid url'],
      [{ url: 'ftp://example.com/x' }, 'url', 'Enter a valid url'],
      [{ url: '' }, 'url', 'This field is required'],
      [{ genreId: 'one' }, 'genreId', 'This field is required'],
      [{ genreId: 1.5 }, 'genreId', 'This field must be a number'],
      [{ genreId: -1 }, 'genreId', 'This field must be a positive number'],
      [{ genreId: 999_999 }, 'genreId', 'No such genre'],
      [{ platformId: 999_999 }, 'platformId', 'No such platform'],
      [{ currencyId: 999_999 }, 'currencyId', 'No such currency'],
      [{ extra: true }, 'extra', 'Unknown field'],
    ];
    for (const [patch, field, message] of cases) {
      const res = await server.call('POST', '/games', {
        session: issuer,
        body: { ...gameBody('Validated'), ...patch },
      });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.field, JSON.stringify(patch)).toBe(field);
      expect(res.body.message, JSON.stringify(patch)).toContain(message);
    }
    const { name: _n, ...withoutName } = gameBody('x');
    expect((await server.call('POST', '/games', { session: issuer, body: withoutName })).body.field).toBe(
      'name',
    );
    expect(await count()).toBe(before);

    const { game } = await createGame(issuer, 'Validated on edit');
    const row = await gameRow(game.id);
    for (const [patch, field] of [
      [{ url: 'nope' }, 'url'],
      [{ statusId: 9 }, 'statusId'],
      [{ gameId: 'x' }, 'gameId'],
      [{ name: '' }, 'name'],
      [{ currencyId: 999_999 }, 'currencyId'],
    ] as const) {
      const res = await server.call('PUT', '/game', { session: issuer, body: { gameId: game.id, ...patch } });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect(await gameRow(game.id)).toEqual(row);
  });

  it('answers in Russian when asked', async () => {
    const res = await server.call('POST', '/games', {
      session: issuer,
      locale: 'ru',
      body: { ...gameBody('Ru'), url: 'nope' },
    });
    expect(res.body.message).toBe('url: Введите корректный url');
  });

  it('deletes a game after which its SDK cannot connect', async () => {
    const { game, secrets } = await createGame(issuer, 'Doomed');
    const res = await server.call('DELETE', '/game', { session: issuer, body: { gameId: game.id } });
    expect(res.status).toBe(200);
    expect(await gameRow(game.id)).toBeUndefined();
    expect((await server.call('POST', '/games/sdk', { body: secrets })).status).toBe(401);
    expect(
      (await server.call('DELETE', '/game', { session: issuer, body: { gameId: game.id } })).status,
    ).toBe(404);
    expect(await historyCount('games.log.deleted')).toBeGreaterThan(0);
  });
});

describe('lookups', () => {
  it('answers seeded genres, platforms and currencies in the caller’s language', async () => {
    const en = (await server.call('GET', '/games/genres', { session: issuer })).body.map(
      (g: { name: string }) => g.name,
    );
    const ru = (await server.call('GET', '/games/genres', { session: issuer, locale: 'ru' })).body.map(
      (g: { name: string }) => g.name,
    );
    expect(en).toEqual(expect.arrayContaining(['Action', 'Puzzle', 'Strategy']));
    expect(ru).toEqual(expect.arrayContaining(['Экшен', 'Головоломка', 'Стратегия']));
    const platforms = (await server.call('GET', '/games/platforms', { session: issuer })).body.map(
      (g: { name: string }) => g.name,
    );
    expect(platforms).toEqual(expect.arrayContaining(['Android', 'iOS', 'Web', 'VK Play']));
    const currencies = (await server.call('GET', '/games/currencies', { session: issuer, locale: 'ru' }))
      .body;
    expect(currencies.find((c: { code: string }) => c.code === 'RUB').name).toBe('Российский рубль');
  });

  it('adds a genre once, whatever its case or language', async () => {
    const res = await server.call('POST', '/games/genres', {
      session: issuer,
      body: { name: '  Roguelike  ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Roguelike');
    for (const name of ['roguelike', 'ACTION', 'экшен']) {
      const dup = await server.call('POST', '/games/genres', { session: issuer, body: { name } });
      expect(dup.status, name).toBe(409);
      expect(dup.body.message).toBe('This genre already exists');
    }
    const list = (await server.call('GET', '/games/genres', { session: issuer })).body;
    expect(list.filter((g: { name: string }) => g.name === 'Roguelike')).toHaveLength(1);
    expect((await server.call('POST', '/games/genres', { session: issuer, body: { name: '' } })).status).toBe(
      400,
    );
    expect(
      (await server.call('POST', '/games/genres', { session: issuer, body: { name: 'x'.repeat(101) } }))
        .status,
    ).toBe(400);
    expect(
      (await server.call('POST', '/games/platforms', { session: admin, body: { name: 'android' } })).status,
    ).toBe(409);
  });
});

describe('the list', () => {
  it('pages, counts, searches and sorts on the server', async () => {
    const s = await server.as(Role.Issuer);
    for (let i = 1; i <= 23; i++) await createGame(s, `Paged ${String(i).padStart(2, '0')}`);
    await createGame(s, '100% fun_game');
    const page3 = await server.call('GET', '/games?page=3&pageSize=10&sort=name&order=asc', { session: s });
    expect(page3.status).toBe(200);
    expect(page3.headers.get('x-total-count')).toBe('24');
    // '1' sorts before 'p': the odd name comes first, so page 3 holds the last four.
    expect(page3.body.map((g: { name: string }) => g.name)).toEqual([
      'Paged 20',
      'Paged 21',
      'Paged 22',
      'Paged 23',
    ]);
    const desc = await server.call('GET', '/games?pageSize=3&sort=name&order=desc', { session: s });
    expect(desc.body.map((g: { name: string }) => g.name)).toEqual(['Paged 23', 'Paged 22', 'Paged 21']);
    const search = await server.call('GET', '/games?search=PAGED%201', { session: s });
    expect(search.headers.get('x-total-count')).toBe('10');
    // Wildcards are literal.
    const pct = await server.call('GET', '/games?search=100%25', { session: s });
    expect(pct.body.map((g: { name: string }) => g.name)).toEqual(['100% fun_game']);
    const under = await server.call('GET', '/games?search=d_0', { session: s });
    expect(under.body).toEqual([]);
    expect((await server.call('GET', '/games?pageSize=101', { session: s })).status).toBe(400);
    expect((await server.call('GET', '/games?page=0', { session: s })).status).toBe(400);
    expect((await server.call('GET', '/games?sort=password', { session: s })).status).toBe(400);
    expect((await server.call('GET', '/games?oid=abc', { session: s })).status).toBe(400);
  });

  it('sorts by name case-insensitively, ascending', async () => {
    const s = await server.as(Role.Issuer);
    for (const name of ['banana', 'Apple', 'cherry']) await createGame(s, name);
    const res = await server.call('GET', '/games?sort=name&order=asc', { session: s });
    expect(res.body.map((g: { name: string }) => g.name)).toEqual(['Apple', 'banana', 'cherry']);
  });
});
