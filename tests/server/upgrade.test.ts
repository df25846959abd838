import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Dialect } from '../../server/db';
import { migrationsFor } from '../../server/db/migrations';
import { hashPassword } from '../../server/auth/password';
import { counterQuestions } from '../../server/reports/counters';
import { rebuildCityCounters, rebuildPersonCounters } from '../../server/reports/recount';
import { sampleContent, sampleRespondents, type SampleRespondent } from '../../server/reports/sample';
import type { Db } from '../../server/db';
import type { Question } from '../../src/domain/content/model';
import { ProjectStatus } from '../../src/domain/projects';
import { GameStatus } from '../../src/domain/gameStatus';
import { Role, UserStatus } from '../../src/domain/roles';
import { createPgDatabase, startServer, TEST_PASSWORD, type TestServer } from './helpers';
import { expectReport } from './stats-brute';
import { CHOICE } from '../../server/reports/shape';

// Issue 33, part 6: a database made by an older release upgrades. For every migration level, a
// database is brought to that level (Kysely's migrateTo), rows are written the way the release at
// that level wrote them (only the columns it had; later columns are filled only from the level that
// added them), then today's server starts on it (migrating it the rest of the way) and the data must
// read right through the API: sign-in, lists and search, a questionnaire and its history, a report
// equal to a count of the rows written, a game, a callback delivery, a player's record, a picture.
// A new migration is a new level here by itself; a migration that adds data a release writes adds a
// writer below (with the level it starts at) and its check.

const LEVELS = Object.keys(migrationsFor('sqlite'));
const at = (level: string, since: string) => level >= since;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const dialect: Dialect = onPostgres ? 'postgres' : 'sqlite';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of older schemas, not today's types
type AnyDb = Kysely<any>;

interface Written {
  researcherEmail: string;
  researcherName: string;
  adminEmail: string;
  projectName: string;
  answered: { pid: number; people: SampleRespondent[]; questions: Question[] };
  picture: { file: string; bytes: Buffer } | null;
  game: { id: number; apiKey: string; token: string } | null;
  deliveryId: string | null;
  player: string | null;
}

/** Writes what a release at `level` had written by the time it was replaced. */
async function writeAsRelease(db: AnyDb, level: string, dataDir: string): Promise<Written> {
  const now = Date.now();
  const tag = crypto.randomBytes(3).toString('hex');
  const org = await db
    .insertInto('organizations')
    .values({
      name: `Upgrade Org ${tag}`,
      type: 1,
      category_id: null,
      created_at: now,
      ...(at(level, '003') ? { name_key: `upgrade org ${tag}` } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const hash = await hashPassword(TEST_PASSWORD, 10);
  const user = async (email: string, fullname: string, role: number) =>
    (
      await db
        .insertInto('users')
        .values({
          email,
          fullname,
          role_id: role,
          status_id: UserStatus.Activated,
          organization_id: org.id,
          category_id: null,
          password_hash: hash,
          locale: null,
          created_at: now,
          updated_at: now,
          ...(at(level, '003') ? { search_text: `${email} ${fullname}`.toLowerCase() } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  const researcherEmail = `old.researcher.${tag}@example.com`;
  const researcherName = `Ольга Старожилова ${tag}`;
  const researcher = await user(researcherEmail, researcherName, Role.Researcher);
  const adminEmail = `old.admin.${tag}@example.com`;
  await user(adminEmail, 'Old Admin', Role.Administrator);
  await db
    .insertInto('history')
    .values({
      user_id: researcher,
      email: researcherEmail,
      organization: `Upgrade Org ${tag}`,
      chapter: 'projects',
      service: 'projects',
      message_key: 'projects.log.created',
      message_params: JSON.stringify({ name: `Old project ${tag}` }),
      created_at: now,
    })
    .execute();

  const project = async (name: string, status: number, template: string) =>
    (
      await db
        .insertInto('projects')
        .values({
          name,
          priority: 0,
          organization_id: org.id,
          template,
          type: 1,
          status,
          link_token: status === ProjectStatus.OnRotation ? `oldlink${tag}${status}` : null,
          created_by: researcher,
          created_at: now,
          updated_at: now,
          ...(at(level, '005') ? { search_name: name.toLowerCase(), status_changed_at: now } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  const projectName = `Old project ${tag}`;
  const hasProjects = at(level, '002');
  const edited = hasProjects ? await project(projectName, ProjectStatus.Created, 'default') : 0;
  const answeredPid = hasProjects
    ? await project(`Answered ${tag}`, ProjectStatus.OnRotation, 'directLink')
    : 0;

  const content = sampleContent();
  let picture: Written['picture'] = null;
  let people: SampleRespondent[] = [];
  if (at(level, '006')) {
    // Content as a client of that time sent it: a key the schema no longer knows rides along.
    const stored = JSON.stringify({ ...content, legacyNote: 'kept by an old client' });
    for (const pid of [edited, answeredPid]) {
      await db
        .insertInto('project_contents')
        .values({
          project_id: pid,
          version: 2,
          content: stored,
          question_count: 20,
          updated_at: now,
          updated_by: researcher,
        })
        .execute();
      for (const version of [1, 2])
        await db
          .insertInto('project_content_versions')
          .values({
            project_id: pid,
            version,
            content: stored,
            saved_at: now - (2 - version) * 1000,
            saved_by: researcher,
            ...(at(level, '008') ? { summary: JSON.stringify({ questions: 20 }) } : {}),
          })
          .execute();
    }
    // Pictures were files in DATA_DIR/uploads named by their hash, with a row each; from 022 on,
    // their bytes are in the row.
    const bytes = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      crypto.randomBytes(64),
    ]);
    const sum = crypto.createHash('sha256').update(bytes).digest('hex');
    const inRow = at(level, '022');
    if (!inRow) {
      fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'uploads', `${sum}.png`), bytes);
    }
    await db
      .insertInto('pictures')
      .values({
        hash: sum,
        ext: 'png',
        size: bytes.length,
        created_at: now,
        created_by: researcher,
        ...(inRow ? { bytes } : {}),
      })
      .execute();
    picture = { file: `${sum}.png`, bytes };
  }

  let game: Written['game'] = null;
  if (at(level, '004')) {
    const first = (t: string) => db.selectFrom(t).select('id').orderBy('id').executeTakeFirstOrThrow();
    const apiKey = crypto.randomBytes(12).toString('hex');
    const token = crypto.randomBytes(12).toString('hex');
    const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const row = await db
      .insertInto('games')
      .values({
        name: `Old game ${tag}`,
        name_norm: `old game ${tag}`,
        organization_id: org.id,
        genre_id: (await first('game_genres')).id,
        platform_id: (await first('game_platforms')).id,
        currency_id: (await first('game_currencies')).id,
        status: GameStatus.Connected,
        url: 'https://example.com/game',
        api_key_hash: sha(apiKey),
        api_key_prefix: apiKey.slice(0, 4),
        api_key_suffix: apiKey.slice(-4),
        token_hash: sha(token),
        token_prefix: token.slice(0, 4),
        token_suffix: token.slice(-4),
        sdk_connected_at: now,
        last_sdk_at: now,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    game = { id: row.id, apiKey, token };
  }

  if (at(level, '007')) {
    people = sampleRespondents(11, 60, content);
    for (const p of people) {
      const r = await db
        .insertInto('respondents')
        .values({
          project_id: answeredPid,
          questionnaire_id: content.questionnaires[0].id,
          portrait_id: p.portrait_id,
          token_hash: crypto.randomBytes(16).toString('hex'),
          source: 'link',
          game_id: null,
          player_id: null,
          gender: p.gender,
          age: p.age,
          city: p.city,
          region: p.region,
          education: p.education,
          platform: p.platform,
          status: p.status,
          state: '{}',
          locale: 'ru',
          started_at: p.started_at,
          updated_at: p.finished_at ?? p.started_at,
          finished_at: p.finished_at,
          ...(at(level, '018') ? { last_question_id: p.last_question_id } : {}),
          ...(at(level, '021') ? { language: 'ru' } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const a of p.answers)
        await db
          .insertInto('respondent_answers')
          .values({ ...a, respondent_id: r.id, project_id: answeredPid })
          .execute();
    }
    // From 011 on, a release kept the counters beside the rows it wrote (010's were rebuilt by 011),
    // in the tables of its level: only the counted respondents from 020 on (and the deltas tables),
    // keyed by language from 024 on.
    const questions = counterQuestions(content);
    const counters = { counted: at(level, '020'), language: at(level, '024') };
    if (at(level, '011')) await rebuildPersonCounters(db as unknown as Db, answeredPid, questions, counters);
    if (at(level, '013')) await rebuildCityCounters(db as unknown as Db, answeredPid, questions, counters);
    // Before 018 nobody recorded the question a respondent stopped at: 018 takes their last
    // answer's once the survey ended for them; for one still in progress the page shown now is not
    // known (023), so they count where they answered and leave nowhere.
    if (!at(level, '018'))
      people = people.map((p) => ({
        ...p,
        last_question_id:
          p.status !== 1 && p.answers.length ? p.answers[p.answers.length - 1].question_id : null,
      }));
  }

  let deliveryId: string | null = null;
  if (at(level, '015')) {
    deliveryId = crypto.randomUUID();
    await db
      .insertInto('callback_deliveries')
      .values({
        id: deliveryId,
        project_id: answeredPid,
        block_id: content.questionnaires[0].blocks[0].id,
        respondent_id: null,
        url: 'https://example.com/hook',
        body: '{}',
        test: 0,
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: now,
        lease_until: null,
        created_at: now,
        delivered_at: now,
      })
      .execute();
  }

  let player: string | null = null;
  if (at(level, '016') && game) {
    player = `old-player-${tag}`;
    const row = await db
      .insertInto('game_players')
      .values({
        game_id: game.id,
        player_id: player,
        gender: 'female',
        age: 31,
        city: null,
        region: null,
        education: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('game_player_fields')
      .values({ game_player_id: row.id, name: 'nickname', value: 'Старый друг', updated_at: now })
      .execute();
  }
  return {
    researcherEmail,
    researcherName,
    adminEmail,
    projectName,
    answered: {
      pid: answeredPid,
      people,
      questions: content.questionnaires[0].blocks.flatMap((b) => b.questions),
    },
    picture,
    game,
    deliveryId,
    player,
  };
}

/** What today's server must make of it. */
async function checkToday(server: TestServer, level: string, w: Written) {
  const researcher = await server.login(w.researcherEmail);
  const admin = await server.login(w.adminEmail);
  const get = async (session: typeof admin, pathAndQuery: string) => {
    const res = await server.call('GET', pathAndQuery, { session });
    expect(res.status, `${level}: GET ${pathAndQuery}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  // Users, with the search that later releases index.
  const found = await get(
    admin,
    `/users?roles=${Role.Researcher}&search=${encodeURIComponent('старожилова')}`,
  );
  expect(
    found.map((u: { email: string }) => u.email),
    level,
  ).toContain(w.researcherEmail);
  const log = await get(admin, '/history?limit=100');
  expect(JSON.stringify(log), level).toContain(w.researcherEmail);
  if (!at(level, '002')) return;
  // Projects, found by a part of the name.
  const projects = await get(
    researcher,
    `/projects?search=${encodeURIComponent(w.projectName.slice(4, 11))}`,
  );
  expect(
    projects.map((p: { name: string }) => p.name),
    level,
  ).toContain(w.projectName);
  const listed = projects.find((p: { name: string }) => p.name === w.projectName);

  if (at(level, '006')) {
    const opened = await get(researcher, `/project?pid=${listed.id}`);
    expect(opened.content.questionnaires.length, level).toBe(1);
    expect(JSON.stringify(opened), level).not.toContain('legacyNote');
    const versions = await get(researcher, `/project/versions?pid=${listed.id}`);
    expect(versions.versions.map((v: { version: number }) => v.version).sort(), level).toEqual([1, 2]);
    const res = await fetch(`${server.url}/api/v1/service/pictures/${w.picture!.file}`);
    expect(res.status, `${level}: picture`).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(w.picture!.bytes), level).toBe(true);
  }
  if (at(level, '007')) {
    const report = await get(admin, `/project/stats/file?pid=${w.answered.pid}&type=json`);
    expectReport(report, w.answered.people, {}, w.answered.questions);
    // Everyone answered in the source language (021 set it on the rows written before it).
    const inRussian = await get(admin, `/project/stats/file?pid=${w.answered.pid}&type=json&language=ru`);
    expect(inRussian.respondents, level).toEqual(report.respondents);
    // Through the counters keyed by language (024), counted again from the rows of every level.
    expectReport(inRussian, w.answered.people, {}, w.answered.questions);
    // The list's text search finds the written answers of before through 025's trigram index.
    const written = (q: Question) =>
      q.category === 'open' || (CHOICE.includes(q.category) && q.other !== null);
    const ids = new Set(w.answered.questions.filter(written).map((q) => q.id));
    const wrote = w.answered.people.filter((p) =>
      p.answers.some((a) => ids.has(a.question_id) && (a.text ?? '').toLowerCase().includes('ночной')),
    ).length;
    expect(wrote, level).toBeGreaterThan(0);
    const found = await get(
      admin,
      `/project/respondents?pid=${w.answered.pid}&excluded=all&textSearch=${encodeURIComponent('НОЧНОЙ')}`,
    );
    expect(found.total, level).toBe(wrote);
  }
  if (w.game) {
    const games = await get(admin, '/games');
    expect(JSON.stringify(games), level).toContain(`Old game`);
    // The SDK's handshake still knows the game by the key and token it was given then.
    const sdk = await server.call('POST', '/games/sdk', {
      body: { apiKey: w.game.apiKey, token: w.game.token },
    });
    expect(sdk.status, `${level}: SDK handshake ${JSON.stringify(sdk.body)}`).toBe(200);
  }
  if (w.deliveryId) {
    const log = await get(admin, `/project/callbacks?pid=${w.answered.pid}`);
    expect(
      log.items.map((d: { id: string }) => d.id),
      level,
    ).toContain(w.deliveryId);
  }
  if (w.player) {
    const record = await get(admin, `/games/player?gameId=${w.game!.id}&playerId=${w.player}`);
    expect(record, level).toMatchObject({ gender: 'female', age: 31 });
  }
}

describe(`a database made by every earlier release upgrades (${dialect})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => {});
  });

  it.each(LEVELS)(
    'from %s',
    async (level) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `survey-upgrade-${level.slice(0, 3)}-`));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const pgDb = onPostgres ? await createPgDatabase(process.env.TEST_DATABASE_URL!) : null;
      if (pgDb) cleanups.push(pgDb.drop);

      const handle = openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir });
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => migrationsFor(dialect) },
      });
      const { error } = await migrator.migrateTo(level);
      expect(error).toBeUndefined();
      // One transaction: as fast on SQLite's synchronous=FULL as the release's own batched writes.
      const written = await (handle.db as AnyDb)
        .transaction()
        .execute((trx) => writeAsRelease(trx, level, dataDir));
      await handle.db.destroy();

      const server = await startServer((c) => {
        c.dataDir = dataDir;
        c.databaseUrl = pgDb?.url ?? null;
      });
      try {
        await checkToday(server, level, written);
        // Pictures kept as files before 022 were moved into the database, and their folder is gone.
        expect(fs.existsSync(path.join(dataDir, 'uploads')), level).toBe(false);
      } finally {
        await server.app.close();
      }
    },
    // Each level migrates a fresh database all the way up: ~1 s on a quiet machine, but a loaded CI
    // machine was seen taking 60 s for one level on PostgreSQL.
    180_000,
  );
});
