import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { newQuestion } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import type { VersionDocument, VersionList } from '../../src/domain/content/versions';
import { KEPT_VERSIONS } from '../../server/repos/content';

// GET /project/versions and GET /project/version on the real server (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): each save is a version with who, when and what it changed in the change-log's
// words; the last KEPT_VERSIONS are kept; the history is read with the project's own authorization.

let server: TestServer;
let org: number;
let researcher: Session;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  researcher = await server.as(Role.Researcher, { organizationId: org });
});
afterAll(async () => server?.close());

const list = (session: Session, pid: number | string) =>
  server.call('GET', `/project/versions?pid=${pid}`, { session });
const one = (session: Session, pid: number | string, version: number | string) =>
  server.call('GET', `/project/version?pid=${pid}&version=${version}`, { session });

async function saved(pid: number, content: ProjectContent, base: number, session = researcher) {
  const res = await saveProject(server, session, pid, content, base);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.version as number;
}

describe('GET /project/versions', () => {
  it('lists every save newest first with who, when and its changes in codes 001–013', async () => {
    const pid = await insertProject(server, org);
    const empty = await list(researcher, pid);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ current: 0, kept: KEPT_VERSIONS, versions: [] });

    const v1 = completeContent();
    const before = Date.now();
    await saved(pid, v1, 0);
    const v2 = structuredClone(v1);
    const block = v2.questionnaires[0].blocks[0];
    block.questions[0].text = 'How old are you, exactly?';
    block.questions.push(newQuestion({ text: 'Where do you live?', category: 'open' }));
    block.name = 'About you';
    await saved(pid, v2, 1);

    const res = await list(researcher, pid);
    expect(res.status).toBe(200);
    const body = res.body as VersionList;
    expect(body.current).toBe(2);
    expect(body.versions.map((v) => v.version)).toEqual([2, 1]);
    const [second, first] = body.versions;
    expect(second.savedBy).toMatchObject({ id: researcher.user.id, email: researcher.user.email });
    expect(second.savedAt).toBeGreaterThanOrEqual(before);
    expect(second.summary).toEqual({
      total: 3,
      changes: [
        { code: '009', label: 'About you' },
        { code: '008', label: 'How old are you, exactly?' },
        { code: '005', label: 'Where do you live?' },
      ],
    });
    // The first version is summarized against empty content: the questionnaire came.
    expect(first.summary?.changes.map((c) => c.code)).toEqual(['004']);
  });

  it('keeps the last KEPT_VERSIONS versions of a project', async () => {
    const pid = await insertProject(server, org);
    const content = completeContent();
    let version = 0;
    for (let i = 0; i < KEPT_VERSIONS + 3; i++) {
      content.questionnaires[0].blocks[0].questions[0].text = `Text ${i}`;
      version = await saved(pid, content, version);
    }
    const body = (await list(researcher, pid)).body as VersionList;
    expect(body.versions).toHaveLength(KEPT_VERSIONS);
    expect(body.versions[0].version).toBe(KEPT_VERSIONS + 3);
    expect(body.versions.at(-1)!.version).toBe(4);
    expect((await one(researcher, pid, 3)).status).toBe(404);
  });

  it('refuses bad queries with a translated 400 and unknown projects with 404', async () => {
    for (const q of ['', 'pid=', 'pid=abc', 'pid=0', 'pid=-1', 'pid=1.5', 'pid=99999999999']) {
      const res = await server.call('GET', `/project/versions?${q}`, { session: researcher });
      expect(res.status, q).toBe(400);
      expect(res.body.message, q).toBeTruthy();
    }
    expect((await list(researcher, 2_000_000_000)).status).toBe(404);
    const ru = await server.call('GET', '/project/versions?pid=abc', { session: researcher, locale: 'ru' });
    expect(ru.status).toBe(400);
    expect(ru.body.message).not.toBe(
      (await server.call('GET', '/project/versions?pid=abc', { session: researcher })).body.message,
    );
  });
});

describe('GET /project/version', () => {
  it('answers one kept version with its content, exactly as saved', async () => {
    const pid = await insertProject(server, org);
    const v1 = completeContent();
    await saved(pid, v1, 0);
    const v2 = structuredClone(v1);
    v2.questionnaires[0].blocks[0].questions.pop();
    await saved(pid, v2, 1);
    const res = await one(researcher, pid, 1);
    expect(res.status).toBe(200);
    const doc = res.body as VersionDocument;
    expect(doc.version).toBe(1);
    expect(doc.content).toEqual(v1);
    expect(doc.savedBy?.id).toBe(researcher.user.id);
    expect((await getProject(server, researcher, pid)).body.content).toEqual(v2);
  });

  it('answers 404 with a message for a version not kept, and 400 for bad numbers', async () => {
    const pid = await insertProject(server, org);
    await saved(pid, completeContent(), 0);
    const missing = await one(researcher, pid, 7);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Version 7 is not kept (the server keeps the latest versions only)');
    for (const v of ['', 'x', '0', '-3', '2147483648', '1.5'])
      expect((await one(researcher, pid, v)).status, v).toBe(400);
  });
});

describe('who may read the history', () => {
  it('is whoever may read the project: its organization, moderators after sending, administrators', async () => {
    const pid = await insertProject(server, org);
    await saved(pid, completeContent(), 0);
    const otherOrg = await server.createOrganization();
    const stranger = await server.as(Role.Researcher, { organizationId: otherOrg });
    const demoSameOrg = await server.as(Role.DemoResearcher, { organizationId: org });
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const moderator = await server.as(Role.Moderator);
    const issuer = await server.as(Role.Issuer, { organizationId: org });

    for (const s of [researcher, demoSameOrg, admin]) {
      expect((await list(s, pid)).status).toBe(200);
      expect((await one(s, pid, 1)).status).toBe(200);
    }
    // Someone who may not read the project learns nothing, not even that it exists.
    for (const s of [stranger, moderator, issuer]) {
      expect((await list(s, pid)).status).toBe(404);
      expect((await one(s, pid, 1)).status).toBe(404);
    }
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnModeration })
      .where('id', '=', pid)
      .execute();
    expect((await list(moderator, pid)).status).toBe(200);
    expect((await one(moderator, pid, 1)).body.content).toEqual(
      (await getProject(server, researcher, pid)).body.content,
    );
  });

  it('needs a signed-in user', async () => {
    const pid = await insertProject(server, org);
    expect((await server.call('GET', `/project/versions?pid=${pid}`)).status).toBe(401);
    expect((await server.call('GET', `/project/version?pid=${pid}&version=1`)).status).toBe(401);
  });
});
