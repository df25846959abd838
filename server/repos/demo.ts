import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Locales } from '../../src/i18n/i18n-types';
import type { User } from '../../src/domain/user';
import { demoRefusalText, demoRefuses, DEMO_REFUSED_CODE, exampleContent } from '../../src/domain/demo';
import { ProjectStatus } from '../../src/domain/projects';
import { TEMPLATES } from '../../src/domain/templates';
import { Role } from '../../src/domain/roles';
import { HttpError } from '../http/errors';
import { translator } from '../http/i18n';
import { writeContent } from './content';

// The demo researcher's account on the server (docs/decisions/guides.md): the refusals of
// src/domain/demo.ts as 403 answers, and the example project made when the account is confirmed.

/** Throws 403 with the reason when a demo account asks for something it may not do. */
export function refuseDemo(user: Pick<User, 'role'>, action: Parameters<typeof demoRefuses>[1]): void {
  if (demoRefuses(user.role.id, action))
    throw new HttpError(403, demoRefusalText(action), { code: DEMO_REFUSED_CODE });
}

/**
 * Gives a demo researcher a ready example project (an audience survey with two blocks of questions,
 * in their language) the moment their account is confirmed: call it in the transaction that sets
 * the first password through the mailed link, before the password is written. It does nothing for
 * other roles, for an account without an organization, and for an account that already had a
 * password (an invitation sent again later must not make a second example). Returns the project id.
 */
export async function createDemoExample(
  trx: Transaction<Database>,
  user: Pick<User, 'id' | 'role' | 'organization'>,
  locale: Locales,
  now = Date.now(),
): Promise<number | null> {
  if (user.role.id !== Role.DemoResearcher || !user.organization) return null;
  const row = await trx
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', user.id)
    .executeTakeFirst();
  if (!row || row.password_hash) return null;
  const t = translator(locale);
  const name = t.guides.demo.example.name();
  const project = await trx
    .insertInto('projects')
    .values({
      name,
      search_name: name.toLowerCase(),
      priority: 0,
      organization_id: user.organization.id,
      template: 'default',
      type: TEMPLATES.default.type,
      status: ProjectStatus.Created,
      link_token: null,
      created_by: user.id,
      created_at: now,
      updated_at: now,
      status_changed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeContent(trx, project.id, 0, exampleContent(t), user.id, now);
  return project.id;
}
