import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';

// POST /project/review-settings: on moderation, a Moderator or an Administrator sets block
// customParams and callbackUrl and question customParams, and nothing else; a Researcher never
// does; a stale version is a 412; bad JSON or URL a 400; nothing is half-written.

let server: TestServer;
let org: number;
let researcher: Session;
let moderator: Session;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization('Review Org');
  researcher = await server.as(Role.Researcher, { organizationId: org });
  moderator = await server.as(Role.Moderator);
  admin = await server.as(Role.Administrator);
});
afterAll(async () => {
  await server?.close();
});

async function sentProject(status: number = ProjectStatus.OnModeration) {
  const pid = await insertProject(server, org);
  const content = completeContent();
  expect((await saveProject(server, researcher, pid, content, 0)).status).toBe(200);
  await server.app.db.updateTable('projects').set({ status }).where('id', '=', pid).execute();
  return { pid, content };
}

const review = (session: Session, body: unknown) =>
  server.call('POST', '/project/review-settings', { session, body });

describe('POST /project/review-settings', () => {
  it('lets a Moderator set the technical fields on moderation, keeping everything else as it was', async () => {
    const { pid, content } = await sentProject();
    const block = content.questionnaires[0].blocks[0];
    const q = block.questions[0];
    const res = await review(moderator, {
      pid,
      version: 1,
      blocks: [{ id: block.id, customParams: '{"x":1}', callbackUrl: 'https://example.com/cb' }],
      questions: [{ id: q.id, customParams: '{"y":2}' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    const stored = (await getProject(server, moderator, pid)).body.content as ProjectContent;
    const expected = structuredClone(content);
    Object.assign(expected.questionnaires[0].blocks[0], {
      customParams: '{"x":1}',
      callbackUrl: 'https://example.com/cb',
    });
    expected.questionnaires[0].blocks[0].questions[0].customParams = '{"y":2}';
    expect(stored).toEqual(JSON.parse(JSON.stringify(expected)));
    // The Logs page says who did it.
    const log = await server.app.db
      .selectFrom('history')
      .select('message_key')
      .where('message_key', '=', 'panels.log.reviewSaved')
      .execute();
    expect(log.length).toBeGreaterThan(0);
  });

  it('is refused to a Researcher, outside moderation, for an unknown item, a stale version or a bad value', async () => {
    const { pid, content } = await sentProject(ProjectStatus.OnModerationVK);
    const block = content.questionnaires[0].blocks[0];
    const ok = { pid, version: 1, blocks: [{ id: block.id, customParams: '{}' }] };
    expect((await review(researcher, ok)).status).toBe(403);
    // The role is checked before the project is looked up: 403 for any Researcher, which says nothing
    // about the project (docs/decisions/hardening.md).
    expect((await review(await server.as(Role.Researcher), ok)).status).toBe(403);
    expect((await review(moderator, { ...ok, version: 0 })).status).toBe(412);
    const badJson = await review(moderator, { ...ok, blocks: [{ id: block.id, customParams: '{"a":' }] });
    expect(badJson.status).toBe(400);
    expect(badJson.body.message).toContain('Value must be a valid JSON string');
    const badUrl = await review(moderator, { ...ok, blocks: [{ id: block.id, callbackUrl: 'not a url' }] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.message).toContain('Enter a valid url');
    expect((await review(moderator, { ...ok, blocks: [{ id: 'nope', customParams: '{}' }] })).status).toBe(
      400,
    );
    expect(
      (
        await review(moderator, {
          ...ok,
          questions: [{ id: block.questions[0].id, text: 'x', customParams: '' }],
        })
      ).status,
    ).toBe(400);
    expect((await review(moderator, { ...ok, pid: 2 ** 40 })).status).toBe(400);
    expect(
      (await review(moderator, { ...ok, blocks: [{ id: block.id, customParams: 'a\u0000' }] })).status,
    ).toBe(400);
    // Nothing above was written.
    expect((await getProject(server, admin, pid)).body.version).toBe(1);

    const rotating = await sentProject(ProjectStatus.OnRotation);
    const rb = rotating.content.questionnaires[0].blocks[0];
    expect(
      (await review(admin, { pid: rotating.pid, version: 1, blocks: [{ id: rb.id, customParams: '{}' }] }))
        .status,
    ).toBe(409);
    expect((await review(admin, ok)).status).toBe(200);
  });
});
