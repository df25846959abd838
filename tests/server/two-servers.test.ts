import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { API, startServer, type CallOptions, type CallResult, type TestServer } from './helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import { ProjectStatus } from '../../src/domain/projects';
import { GameStatus } from '../../src/domain/gameStatus';
import { Role } from '../../src/domain/roles';
import { startRespondent } from '../../server/survey/respond';
import { SURVEY_LIMITS } from '../../server/routes/survey';

// Issue 24, part 4: the respondent page served by two server processes on one PostgreSQL, each
// respondent's requests alternating between them (what a round-robin balancer does). Pages, resume
// and quotas must stay right although each process keeps respondents, content and the answer limits
// in its own memory (docs/decisions/players.md, README "Several servers").
// Two servers need one database both can reach: PostgreSQL. A SQLite file belongs to one process
// (better-sqlite3 in WAL mode on one machine), so there is nothing to balance: skipped there.

const onPostgres = !!process.env.TEST_DATABASE_URL;

let a: TestServer;
let bApp: FastifyInstance;
let bUrl: string;
let bDataDir = '';

/** Calls server B as TestServer.call calls A. */
async function callB(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { 'accept-language': 'en', ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(bUrl + API + path, { method, headers, body });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: json };
}
const servers = () => [a.call, callB] as const;

describe.skipIf(!onPostgres)(
  'two servers on one PostgreSQL (skipped on SQLite: a SQLite file is one process’s, there is no second server to balance to)',
  () => {
    beforeAll(async () => {
      a = await startServer();
      // The second process: the same configuration, the same database, its own memory and DATA_DIR.
      bDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-test-b-'));
      bApp = await buildApp({ ...a.config, dataDir: bDataDir }, { logger: false });
      await bApp.listen({ port: 0, host: '127.0.0.1' });
      const address = bApp.server.address();
      bUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await bApp?.close();
      if (bDataDir) fs.rmSync(bDataDir, { recursive: true, force: true });
      await a?.close();
    });

    it('takes a respondent’s pages alternately on both servers, resumes on either, and resends safely', async () => {
      const { link } = await insertSurveyProject(a, surveyContent());
      const [onA, onB] = servers();
      const started = await onA('POST', `/survey/${link}/start`, { body: {} });
      expect(started.body.state).toBe('started');
      const headers = { 'x-respondent-token': started.body.token };
      for (const [at, questionId] of ORDER.entries()) {
        const here = at % 2 === 0 ? onA : onB;
        const there = at % 2 === 0 ? onB : onA;
        // Before each page the other server resumes the respondent where they are.
        const session = await there('GET', '/survey/session', { headers });
        expect(session.status).toBe(200);
        expect(session.body.replies).toHaveLength(at);
        const res = await here('POST', '/survey/answer', {
          body: { at, questionId, reply: GOOD[questionId] },
          headers,
        });
        expect(res.status, `${questionId}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.answered).toBe(at + 1);
        // The same page sent again to the other server (a retry through the balancer): the same answer.
        const again = await there('POST', '/survey/answer', {
          body: { at, questionId, reply: GOOD[questionId] },
          headers,
        });
        expect(again.status).toBe(200);
        expect(again.body).toEqual(res.body);
      }
      const end = await onB('GET', '/survey/session', { headers });
      expect(end.body.status).toBe('completed');
      expect(end.body.replies).toHaveLength(ORDER.length);
      const rows = await a.app.db
        .selectFrom('respondent_answers')
        .innerJoin('respondents', 'respondents.id', 'respondent_answers.respondent_id')
        .select('respondent_answers.question_id')
        .where(
          'respondents.project_id',
          '=',
          (
            await a.app.db
              .selectFrom('projects')
              .select('id')
              .where('link_token', '=', link)
              .executeTakeFirstOrThrow()
          ).id,
        )
        .execute();
      // Every question answered once: no page written twice, none lost.
      expect(new Set(rows.map((r) => r.question_id))).toEqual(new Set(ORDER));
    });

    it('goes back and changes an answer on the other server than the one that kept the respondent', async () => {
      const { link } = await insertSurveyProject(a, surveyContent());
      const [onA, onB] = servers();
      const started = await onA('POST', `/survey/${link}/start`, { body: {} });
      const headers = { 'x-respondent-token': started.body.token };
      for (const [at, questionId] of ORDER.slice(0, 4).entries())
        expect(
          (
            await onA('POST', '/survey/answer', {
              body: { at, questionId, reply: GOOD[questionId] },
              headers,
            })
          ).status,
        ).toBe(200);
      // B changes page 2 (A still keeps the respondent at 4 pages); then A continues from B's state.
      const back = await onB('POST', '/survey/answer', {
        body: { at: 2, questionId: 'few', reply: { answers: ['f2'] } },
        headers,
      });
      expect(back.body).toEqual({ status: 'started', answered: 3 });
      const stale = await onA('POST', '/survey/answer', {
        body: { at: 4, questionId: 'open', reply: GOOD.open },
        headers,
      });
      expect(stale.status).toBe(409); // page 3 comes first again: A read the fresh state, not its copy
      const next = await onA('POST', '/survey/answer', {
        body: { at: 3, questionId: 'qual', reply: GOOD.qual },
        headers,
      });
      expect(next.body).toEqual({ status: 'started', answered: 4 });
    });

    it('200 completions racing on both servers for the last 10 places leave exactly the target', async () => {
      const content = {
        questionnaires: [
          newQuestionnaire({
            id: 'Q1',
            blocks: [
              newBlock({
                questions: [
                  newQuestion({ id: 'only', text: 'Only', answers: [newAnswer({ id: 'a1', text: 'Yes' })] }),
                ],
              }),
            ],
          }),
        ],
        portraits: [newPortrait({ id: 'all', respondents: 50, params: [] })],
      };
      const { pid, link } = await insertSurveyProject(a, content, { template: 'target' });
      const db = a.app.db;
      const project = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
      const tokens: string[] = [];
      for (let i = 0; i < 200; i++) {
        const r = await startRespondent(db, { project, source: 'link' });
        if (r.outcome !== 'started') throw new Error('not started');
        tokens.push(r.token);
      }
      await db.updateTable('portrait_quotas').set({ completed: 40 }).where('project_id', '=', pid).execute();
      const [onA, onB] = servers();
      const results = await Promise.all(
        tokens.map((t, i) =>
          (i % 2 === 0 ? onA : onB)('POST', '/survey/answer', {
            body: { at: 0, questionId: 'only', reply: { answers: ['a1'] } },
            headers: { 'x-respondent-token': t },
          }),
        ),
      );
      const outcomes = results.map((r) => (r.status === 200 ? r.body.status : `${r.status} ${r.body.state}`));
      expect(outcomes.filter((s) => s === 'completed')).toHaveLength(10);
      expect(outcomes.filter((s) => s !== 'completed' && s !== 'quotaFull' && s !== '409 finished')).toEqual(
        [],
      );
      // Both servers answered their half of the racers.
      for (const side of [0, 1])
        expect(results.filter((r, i) => i % 2 === side && r.status === 200).length).toBeGreaterThan(0);
      const quota = await db
        .selectFrom('portrait_quotas')
        .selectAll()
        .where('project_id', '=', pid)
        .executeTakeFirstOrThrow();
      expect(quota).toMatchObject({ target: 50, completed: 50 });
      const completed = await db
        .selectFrom('respondents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', pid)
        .where('status', '=', 2)
        .executeTakeFirstOrThrow();
      expect(Number(completed.n)).toBe(10);
      const p = await db
        .selectFrom('projects')
        .select('status')
        .where('id', '=', pid)
        .executeTakeFirstOrThrow();
      expect(p.status).toBe(ProjectStatus.SurveyFinished);
      // Both servers say so on the link.
      for (const call of servers())
        expect((await call('GET', `/survey/${link}`)).body.state).toBe('finished');
    });

    it('takes a game’s player through both servers: the record and the game’s numbers are written once', async () => {
      const db = a.app.db;
      const org = await a.createOrganization();
      const apiKey = crypto.randomBytes(12).toString('hex');
      const token = crypto.randomBytes(12).toString('hex');
      const sha = (x: string) => crypto.createHash('sha256').update(x).digest('hex');
      const now = Date.now();
      const id = (t: 'game_genres' | 'game_platforms') =>
        db.selectFrom(t).select('id').executeTakeFirstOrThrow();
      const game = await db
        .insertInto('games')
        .values({
          name: 'Two servers',
          name_norm: 'two servers',
          organization_id: org,
          genre_id: (await id('game_genres')).id,
          platform_id: (await id('game_platforms')).id,
          currency_id: (await db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow()).id,
          status: GameStatus.Connected,
          url: 'https://example.com',
          api_key_hash: sha(apiKey),
          api_key_prefix: 'x',
          api_key_suffix: 'x',
          token_hash: sha(token),
          token_prefix: 'x',
          token_suffix: 'x',
          sdk_connected_at: now,
          last_sdk_at: now,
          created_by: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const content = {
        questionnaires: [
          newQuestionnaire({
            id: 'Q1',
            blocks: [
              newBlock({
                questions: [
                  newQuestion({
                    id: 'sex',
                    text: 'Gender?',
                    answers: [newAnswer({ id: 'm', text: 'Male' }), newAnswer({ id: 'f', text: 'Female' })],
                    writeToDb: true,
                    dbFields: ['gender'],
                  }),
                  newQuestion({
                    id: 'nick',
                    text: 'Nick?',
                    category: 'open',
                    writeToDb: true,
                    dbFields: ['nick'],
                  }),
                ],
              }),
            ],
          }),
        ],
        portraits: [newPortrait({ id: 'all', respondents: 10, params: [] })],
      };
      await insertSurveyProject(a, content, { template: 'target' });
      const [onA, onB] = servers();
      const offer = await onA('POST', '/games/sdk/survey', {
        body: { apiKey, token, player: { id: 'p-2s' } },
      });
      expect(offer.status).toBe(200);
      const ticket = new URL(offer.body.url).pathname.split('/').pop()!;
      const started = await onB('POST', `/survey/${ticket}/start`, { body: {} });
      const headers = { 'x-respondent-token': started.body.token };
      expect(
        (
          await onA('POST', '/survey/answer', {
            body: { at: 0, questionId: 'sex', reply: { answers: ['m'] } },
            headers,
          })
        ).status,
      ).toBe(200);
      // The same page resent to B, then the last page on B.
      expect(
        (
          await onB('POST', '/survey/answer', {
            body: { at: 0, questionId: 'sex', reply: { answers: ['m'] } },
            headers,
          })
        ).status,
      ).toBe(200);
      const end = await onB('POST', '/survey/answer', {
        body: { at: 1, questionId: 'nick', reply: { text: 'Twin' } },
        headers,
      });
      expect(end.body.status).toBe('completed');
      const issuer = await a.as(Role.Issuer, { organizationId: org });
      const record = await callB('GET', `/games/player?gameId=${game.id}&playerId=p-2s`, {
        headers: { 'x-auth-token': issuer.accessToken, 'x-refresh-token': issuer.refreshToken },
      });
      expect(record.body).toMatchObject({ gender: 'male', fields: { nick: 'Twin' } });
      const stats = await a.call('GET', `/games/stats?gameId=${game.id}`, { session: issuer });
      expect(stats.body.totals).toMatchObject({ offered: 1, started: 1, completed: 1, screenedOut: 0 });
    });

    it('counts the answer limits per server process (documented: N processes allow N times the limit)', async () => {
      const { link } = await insertSurveyProject(a, surveyContent());
      const [onA, onB] = servers();
      const started = await onA('POST', `/survey/${link}/start`, { body: {} });
      const headers = { 'x-respondent-token': started.body.token };
      const limit = SURVEY_LIMITS.answerPerRespondent;
      SURVEY_LIMITS.answerPerRespondent = 3;
      try {
        const send = (call: typeof onA) =>
          call('POST', '/survey/answer', { body: { at: 0, questionId: 'scr', reply: GOOD.scr }, headers });
        for (let i = 0; i < 3; i++) expect((await send(onA)).status).toBe(200);
        expect((await send(onA)).status).toBe(429);
        // The other process has its own count: the same respondent is still answered there.
        expect((await send(onB)).status).toBe(200);
      } finally {
        SURVEY_LIMITS.answerPerRespondent = limit;
      }
    });

    it('serves a picture uploaded to one server from the other, each with its own DATA_DIR', async () => {
      const researcher = await a.as(Role.Researcher);
      const bytes = Buffer.concat([
        Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
        crypto.randomBytes(2048),
      ]);
      const form = new FormData();
      form.append('images', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'p.png');
      const up = await a.call('POST', '/picture', { session: researcher, rawBody: form });
      expect(up.status).toBe(200);
      const res = await fetch(bUrl + up.body[0].url);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(`"${up.body[0].hash}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    });
  },
);
