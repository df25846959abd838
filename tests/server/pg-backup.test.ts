import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { createPgDatabase, startServer, type Session, type TestServer } from './helpers';
import { createProject, fillQuestionnaire, setStatus } from './projects.helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';

// Issue 33, part 5, on PostgreSQL: the commands docs/operations.md gives (pg_dump in the custom
// format, pg_restore into a new database) are run on a populated database; a server started on the
// restored one answers the report, a respondent's session and the version history as the first did.

const baseUrl = process.env.TEST_DATABASE_URL;

/** The client programs of the newest PostgreSQL installed (Debian keeps them per version). */
function pgProgram(name: string): string {
  const roots = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql') : [];
  const newest = roots.sort((a, b) => Number(b) - Number(a))[0];
  const candidate = newest ? `/usr/lib/postgresql/${newest}/bin/${name}` : name;
  return fs.existsSync(candidate) ? candidate : name;
}

describe.runIf(baseUrl)('PostgreSQL backup with pg_dump and pg_restore', () => {
  let first: TestServer;
  let second: TestServer | null = null;
  let restoredDb: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  let researcher: Session;
  let admin: Session;
  let edited: number;
  let answered: number;
  let respondentToken: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'survey-pgdump-'));

  beforeAll(async () => {
    first = await startServer();
    admin = await first.as(Role.Administrator);
    researcher = await first.as(Role.Researcher, { organizationId: await first.createOrganization() });
    // A project with a version history (two saves).
    edited = (await createProject(first, researcher)).id;
    await fillQuestionnaire(first, researcher, edited);
    await fillQuestionnaire(first, researcher, edited);
    // A project with real respondents.
    ({ pid: answered } = await insertSurveyProject(first, surveyContent()));
    const link = (await first.app.db
      .selectFrom('projects')
      .select('link_token')
      .where('id', '=', answered)
      .executeTakeFirstOrThrow())!.link_token!;
    for (let r = 0; r < 3; r++) {
      const start = await first.call('POST', `/survey/${link}/start`, { body: {} });
      respondentToken = start.body.token;
      for (let i = 0; i < ORDER.length - r * 3; i++)
        await first.call('POST', '/survey/answer', {
          body: { at: i, questionId: ORDER[i], reply: GOOD[ORDER[i]] },
          headers: { 'x-respondent-token': respondentToken },
        });
    }
    await setStatus(first, edited, ProjectStatus.OnRotation);
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await restoredDb?.drop();
    await first?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('restores into a new database that a server reads as the first', async () => {
    const dump = path.join(work, 'survey.dump');
    execFileSync(pgProgram('pg_dump'), ['--format=custom', `--file=${dump}`, first.config.databaseUrl!]);
    restoredDb = await createPgDatabase(baseUrl!);
    execFileSync(pgProgram('pg_restore'), ['--no-owner', `--dbname=${restoredDb.url}`, dump]);

    second = await startServer((c) => {
      c.databaseUrl = restoredDb!.url;
    });
    // Sessions live in the database: the researcher's sign-in works on the restored one too.
    const both = async (
      pathAndQuery: string,
      opts: Parameters<TestServer['call']>[2] = { session: researcher },
    ) => {
      const [a, b] = await Promise.all([
        first.call('GET', pathAndQuery, opts),
        second!.call('GET', pathAndQuery, opts),
      ]);
      expect(a.status, pathAndQuery).toBe(200);
      return [a.body, b.body];
    };
    const [reportA, reportB] = await both(`/project/stats/file?pid=${answered}&type=json`, {
      session: admin,
    });
    expect(reportA.respondents.started).toBe(3);
    expect({ ...reportB, generatedAt: 0 }).toEqual({ ...reportA, generatedAt: 0 });

    const [versionsA, versionsB] = await both(`/project/versions?pid=${edited}`);
    expect(versionsA.versions.length).toBeGreaterThanOrEqual(2);
    expect(versionsB).toEqual(versionsA);
    const [oldA, oldB] = await both(`/project/version?pid=${edited}&version=1`);
    expect(oldB).toEqual(oldA);

    const respondent = { headers: { 'x-respondent-token': respondentToken } };
    const [sessionA, sessionB] = await both('/survey/session', respondent);
    expect(sessionA.replies.length).toBeGreaterThan(0);
    expect(sessionB).toEqual(sessionA);
  }, 120_000);
});
