import type { TestServer, Session } from './helpers';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// Drivers shared by the content and picture tests: a project row inserted directly (its creation is
// the projects engineer's call), complete content, and save/load through the API.

export async function insertProject(
  server: TestServer,
  organizationId: number,
  opts: { status?: number; type?: number; name?: string } = {},
) {
  const now = Date.now();
  const row = await server.app.db
    .insertInto('projects')
    .values({
      name: opts.name ?? 'Project',
      priority: 0,
      organization_id: organizationId,
      template: opts.type === ProjectType.Target ? 'target' : 'default',
      type: opts.type ?? ProjectType.Default,
      status: opts.status ?? ProjectStatus.Created,
      link_token: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A complete project: nothing for the rules to complain about (with a portrait when `target`). */
export function completeContent(target = false): ProjectContent {
  const qn = newQuestionnaire({
    blocks: [
      newBlock({
        questions: [
          newQuestion({
            text: 'How old are you?',
            answers: [newAnswer({ text: 'Under 18' }), newAnswer({ text: '18 or more' })],
          }),
          newQuestion({ text: 'Anything else?', category: 'open' }),
        ],
      }),
    ],
  });
  return {
    questionnaires: [qn],
    portraits: target
      ? [
          newPortrait({
            respondents: 300,
            questionnaireId: qn.id,
            params: [{ field: 'gender', values: ['female'], min: null, max: null }],
          }),
        ]
      : [],
  };
}

export async function getProject(server: TestServer, session: Session, pid: number) {
  return server.call('GET', `/project?pid=${pid}`, { session });
}

export async function saveProject(
  server: TestServer,
  session: Session,
  pid: number,
  content: unknown,
  ifMatch?: string | number,
) {
  const headers: Record<string, string> = {};
  if (ifMatch !== undefined) headers['if-match'] = typeof ifMatch === 'number' ? `"${ifMatch}"` : ifMatch;
  return server.call('POST', '/project', { session, body: { pid, content }, headers });
}
