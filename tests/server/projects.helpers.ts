import { expect } from 'vitest';
import type { Session, TestServer } from './helpers';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectTemplate, ProjectStatusId } from '../../src/domain/projects';

// Drivers shared by the projects test files: create a project through the API, give it a question,
// put it in a status directly (to reach every status without walking the machine each time).

export async function createProject(
  server: TestServer,
  session: Session,
  opts: {
    name?: string;
    template?: ProjectTemplate;
    organizationId?: number;
    targetPlatformIds?: number[];
    priority?: number;
  } = {},
) {
  const res = await server.call('POST', '/projects', {
    session,
    body: { name: `Project ${Math.random().toString(36).slice(2, 8)}`, template: 'default', ...opts },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string; status: number; organization: { id: number } };
}

/**
 * Gives the project one question, through the editor's own call (POST /project with If-Match) when
 * the content module serves it, else by writing the content row as that module does.
 */
export async function fillQuestionnaire(server: TestServer, session: Session, pid: number) {
  const question = newQuestion({
    text: 'How often do you play?',
    answers: [newAnswer({ text: 'Daily' }), newAnswer({ text: 'Weekly' })],
  });
  const content = {
    questionnaires: [newQuestionnaire({ blocks: [newBlock({ name: 'Main', questions: [question] })] })],
    portraits: [],
  };
  if (!server.app.hasRoute({ method: 'POST', url: '/api/v1/service/project' })) {
    const { writeContent } = await import('../../server/repos/content');
    expect(await writeContent(server.app.db, pid, 0, content, session.user.id)).toBe(1);
    return;
  }
  const current = await server.call('GET', `/project?pid=${pid}`, { session });
  expect(current.status, JSON.stringify(current.body)).toBe(200);
  const etag = current.headers.get('etag') ?? '"0"';
  const saved = await server.call('POST', '/project', {
    session,
    body: { pid, content },
    headers: { 'if-match': etag },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

export async function setStatus(server: TestServer, pid: number, status: ProjectStatusId) {
  await server.app.db.updateTable('projects').set({ status }).where('id', '=', pid).execute();
}

export async function historyKeys(server: TestServer): Promise<string[]> {
  const rows = await server.app.db.selectFrom('history').select('message_key').orderBy('id').execute();
  return rows.map((r) => r.message_key);
}
