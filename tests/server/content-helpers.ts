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
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

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

/**
 * A project on rotation with the reports' sample questionnaire and `count` generated respondents
 * (`seed` picks them), written straight to the database as the report tests need it.
 */
export async function insertAnsweredProject(
  server: TestServer,
  org: number,
  ownerId: number,
  opts: { name: string; seed: number; count: number },
): Promise<number> {
  const pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: opts.name });
  const content = sampleContent();
  await writeContent(server.app.db, pid, 0, content, ownerId);
  await insertRespondents(
    server.app.db,
    pid,
    content.questionnaires[0].id,
    sampleRespondents(opts.seed, opts.count, content),
  );
  return pid;
}
