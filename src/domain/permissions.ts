import { Role, type RoleId } from './roles';

// The permission table of spec section 6. The UI uses it to show controls; the server uses the same
// table to refuse calls, so hiding a button is never the only check.

const ALL: readonly RoleId[] = Object.values(Role);
const except = (...roles: RoleId[]) => ALL.filter((r) => !roles.includes(r));

export const PERMISSIONS = {
  'project.clone': [Role.Administrator, Role.Moderator],
  'project.change-status': [Role.Administrator],
  'project-editor.change-block-settings': [Role.Administrator, Role.Moderator],
  'project-editor.change-project-settings': except(Role.Researcher),
  'question.change-custom-params': [Role.Administrator, Role.Moderator],
  'games.create-platform': [Role.Administrator],
  /** The spec's unnamed permission that every role holds. */
  everyone: ALL,
} as const satisfies Record<string, readonly RoleId[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(roleId: number | undefined, permission: Permission): boolean {
  return roleId !== undefined && (PERMISSIONS[permission] as readonly number[]).includes(roleId);
}
