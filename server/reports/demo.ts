import type { Db } from '../db';
import { hashPassword } from '../auth/password';
import { writeContent, loadContent } from '../repos/content';
import { setTargetPlatforms } from '../repos/projects';
import { Role, UserStatus } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { insertRespondents, sampleContent, sampleRespondents } from './sample';

// `npm run demo` (scripts/demo.ts): a living example in the configured database. A demo
// organization, a researcher in it, a target project on rotation whose questionnaire uses every
// question category, two portraits with quotas, and DEMO_RESPONDENTS respondents with realistic
// attributes (city, region, age, gender, education, portrait) and answers. Everything is found by
// its name or email first, so a second run changes nothing and only tops up missing respondents.

export const DEMO_ORGANIZATION = 'Демо-студия «Полярная звезда»';
export const DEMO_EMAIL = 'demo.researcher@example.com';
export const DEMO_PASSWORD = 'demo-report1';
export const DEMO_PROJECT = 'Демо: игроки о мобильных играх';
export const DEMO_RESPONDENTS = 10_000;

export interface DemoResult {
  email: string;
  password: string;
  projectId: number;
  created: { organization: boolean; user: boolean; project: boolean; respondents: number };
}

export async function seedDemo(
  db: Db,
  opts: { scryptLogN: number; respondents?: number; log?: (line: string) => void } = { scryptLogN: 17 },
): Promise<DemoResult> {
  const log = opts.log ?? (() => {});
  const wanted = opts.respondents ?? DEMO_RESPONDENTS;
  const now = Date.now();
  const created = { organization: false, user: false, project: false, respondents: 0 };

  let org = await db
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', DEMO_ORGANIZATION)
    .executeTakeFirst();
  if (!org) {
    org = await db
      .insertInto('organizations')
      .values({ name: DEMO_ORGANIZATION, type: 1, category_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    created.organization = true;
  }

  const user = await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  let userId = user?.id;
  if (!userId) {
    const row = await db
      .insertInto('users')
      .values({
        email: DEMO_EMAIL,
        fullname: 'Анна Демонстрационная',
        role_id: Role.Researcher,
        status_id: UserStatus.Activated,
        organization_id: org.id,
        category_id: null,
        password_hash: await hashPassword(DEMO_PASSWORD, opts.scryptLogN),
        locale: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = row.id;
    created.user = true;
  }

  let project = await db
    .selectFrom('projects')
    .select('id')
    .where('organization_id', '=', org.id)
    .where('name', '=', DEMO_PROJECT)
    .executeTakeFirst();
  if (!project) {
    project = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          name: DEMO_PROJECT,
          search_name: DEMO_PROJECT.toLowerCase(),
          priority: 10,
          organization_id: org.id,
          template: 'target',
          type: ProjectType.Target,
          status: ProjectStatus.OnRotation,
          link_token: null,
          created_by: userId,
          created_at: now,
          updated_at: now,
          status_changed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setTargetPlatforms(trx, row.id, [1, 4, 6]);
      return row;
    });
    const written = await writeContent(db, project.id, 0, sampleContent(), userId);
    if (written !== 1) throw new Error('the demo project content could not be written');
    created.project = true;
  }
  const { content } = await loadContent(db, project.id);

  const have = await db
    .selectFrom('respondents')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('project_id', '=', project.id)
    .executeTakeFirstOrThrow();
  const missing = wanted - Number(have.n);
  if (missing > 0) {
    // A different seed per run of top-up, so a topped-up set is not a copy of the first one.
    const people = sampleRespondents(20_260_000 + Number(have.n), missing, content);
    for (let i = 0; i < people.length; i += 1000) {
      await insertRespondents(
        db,
        project.id,
        content.questionnaires[0].id,
        people.slice(i, i + 1000),
        'demo',
      );
      log(`  respondents: ${Math.min(i + 1000, people.length) + Number(have.n)} / ${wanted}`);
    }
    created.respondents = missing;
  }

  // Quotas: each portrait's target and how many of its respondents completed.
  for (const p of content.portraits) {
    const done = await db
      .selectFrom('respondents')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('project_id', '=', project.id)
      .where('portrait_id', '=', p.id)
      .where('status', '=', RESPONDENT_STATUS.completed)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('portrait_quotas')
      .values({ project_id: project.id, portrait_id: p.id, target: p.respondents, completed: Number(done.n) })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'portrait_id'])
          .doUpdateSet({ target: p.respondents, completed: Number(done.n) }),
      )
      .execute();
  }

  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, created };
}
