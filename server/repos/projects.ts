import type { Db } from '../db';
import type { User } from '../../src/domain/user';
import { Role } from '../../src/domain/roles';
import { EDITABLE_STATUSES, ProjectStatus, type ProjectStatusId } from '../../src/domain/projects';
import { conflict, forbidden, notFound } from '../http/errors';

// Who may see and change which project (DESIGN.md 5), checked on every call that names a project.
// Researchers and demo researchers: their organization's projects. Moderators (and Moderator VK):
// projects that have been sent to moderation, and everything after. Administrators: all. Issuers:
// none.

export type ProjectRow = Awaited<ReturnType<typeof findProject>>;

export async function findProject(db: Db, pid: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirst();
}

export function canReadProject(user: User, p: { organization_id: number; status: number }): boolean {
  switch (user.role.id) {
    case Role.Administrator:
      return true;
    case Role.Researcher:
    case Role.DemoResearcher:
      return user.organization?.id === p.organization_id;
    case Role.Moderator:
    case Role.ModeratorVK:
      return p.status !== ProjectStatus.Created;
    default:
      return false;
  }
}

/** Roles that may change a project's content and name (in an editable status). */
export function canWriteProject(user: User, p: { organization_id: number; status: number }): boolean {
  if (!canReadProject(user, p)) return false;
  return user.role.id === Role.Administrator || user.role.id === Role.Researcher || user.role.id === Role.DemoResearcher;
}

export function isEditable(p: { status: number }): boolean {
  return EDITABLE_STATUSES.includes(p.status as ProjectStatusId);
}

/**
 * Loads a project the user may read (mode 'read') or change now (mode 'edit'). A project the user
 * may not see answers 404, as if it did not exist; one they see but may not change answers 403;
 * one that is not in an editable status answers 409.
 */
export async function projectFor(db: Db, user: User, pid: number, mode: 'read' | 'edit') {
  const p = await findProject(db, pid);
  if (!p || !canReadProject(user, p)) throw notFound();
  if (mode === 'edit') {
    if (!canWriteProject(user, p)) throw forbidden();
    if (!isEditable(p)) throw conflict((t) => t.projects.notEditable());
  }
  return p;
}
