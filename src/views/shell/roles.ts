import { Role, type RoleName } from '../../domain/roles';
import type { TranslationFunctions } from '../../i18n/i18n-types';

// Role descriptions in the interface's language: the server's descriptions are Russian (spec
// section 3), which an English interface should not show.

const NAME_BY_ID = new Map<number, RoleName>(
  Object.entries(Role).map(([name, id]) => [id, name as RoleName]),
);

export function roleLabel(
  LL: TranslationFunctions,
  role: { id: number; description: string } | undefined | null,
): string {
  const name = role ? NAME_BY_ID.get(role.id) : undefined;
  return name ? LL.shell.role[name]() : (role?.description ?? '');
}
