import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import {
  contentProblems,
  copyContent,
  KEPT_VERSIONS,
  loadContent,
  writeContent,
} from '../../server/repos/content';
import { EMPTY_CONTENT, type ProjectContent } from '../../src/domain/content/model';
import { insertProject } from './content-helpers';

// The content repository on its own: empty detection (the projects engineer's moderation check uses
// it), optimistic versions and copying.

function oneQuestion(): ProjectContent {
  return {
    ...EMPTY_CONTENT,
    questionnaires: [
      {
        id: 'qn1',
        blocks: [
          {
            id: 'b1',
            name: '',
            customParams: '',
            callbackUrl: '',
            questions: [
              {
                id: 'q1',
                text: 'Age?',
                category: 'open',
                picture: null,
                other: null,
                answers: [],
                statements: [],
                shuffle: 'none',
                answerLimit: null,
                redirect: null,
                recall: null,
                customParams: '',
                writeToDb: false,
                dbFields: [],
                scale: null,
                stars: null,
              },
            ],
          },
        ],
      },
    ],
  };
}

describe('content repository', () => {
  let server: TestServer;
  let org: number;
  beforeAll(async () => {
    server = await startServer();
    org = await server.createOrganization();
  });
  afterAll(async () => server?.close());

  it('calls a project without content, or with blocks but no question, empty (40501)', async () => {
    const db = server.app.db;
    const pid = await insertProject(server, org);
    const firstCode = async () => (await contentProblems(db, { id: pid, type: 1 }))[0]?.code ?? null;
    expect(await firstCode()).toBe(40501);
    const blocksOnly = oneQuestion();
    blocksOnly.questionnaires[0].blocks[0].questions = [];
    expect(await writeContent(db, pid, 0, blocksOnly, null)).toBe(1);
    expect(await firstCode()).toBe(40501);
    expect(await writeContent(db, pid, 1, oneQuestion(), null)).toBe(2);
    expect(await firstCode()).toBeNull();
  });

  it('refuses a write based on a version that is no longer current', async () => {
    const db = server.app.db;
    const pid = await insertProject(server, org);
    expect(await writeContent(db, pid, 0, oneQuestion(), null)).toBe(1);
    expect(await writeContent(db, pid, 0, EMPTY_CONTENT, null)).toBeNull();
    expect(await writeContent(db, pid, 1, EMPTY_CONTENT, null)).toBe(2);
    expect(await writeContent(db, pid, 1, oneQuestion(), null)).toBeNull();
    const stored = await loadContent(db, pid);
    expect(stored.version).toBe(2);
    expect(stored.content).toEqual(EMPTY_CONTENT);
  });

  it('keeps only the latest versions', async () => {
    const db = server.app.db;
    const pid = await insertProject(server, org);
    for (let i = 0; i < KEPT_VERSIONS + 5; i++)
      expect(await writeContent(db, pid, i, oneQuestion(), null)).toBe(i + 1);
    const rows = await db
      .selectFrom('project_content_versions')
      .select('version')
      .where('project_id', '=', pid)
      .orderBy('version')
      .execute();
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: KEPT_VERSIONS }, (_, i) => i + 6));
  });

  it('copies content to another project at version 1', async () => {
    const db = server.app.db;
    const from = await insertProject(server, org);
    const to = await insertProject(server, org);
    await writeContent(db, from, 0, oneQuestion(), null);
    await writeContent(db, from, 1, oneQuestion(), null);
    await copyContent(db, from, to, null);
    const copy = await loadContent(db, to);
    expect(copy.version).toBe(1);
    expect(copy.content).toEqual(oneQuestion());
  });

  it('lists the problems of the stored content that stop a sending to moderation', async () => {
    const db = server.app.db;
    const pid = await insertProject(server, org);
    expect((await contentProblems(db, { id: pid, type: 1 })).map((p) => p.code)).toEqual([40501]);
    const c = oneQuestion();
    c.questionnaires[0].blocks[0].questions[0].text = '';
    await writeContent(db, pid, 0, c, null);
    expect((await contentProblems(db, { id: pid, type: 1 })).map((p) => [p.code, p.path])).toEqual([
      [40514, 'questionnaires.0.blocks.0.questions.0'],
    ]);
  });
});
