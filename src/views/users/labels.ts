import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { RoleId, UserStatusId } from '../../domain/roles';
import { ROLE_KEYS } from '../../domain/users';
import { STATUS_KEYS } from '../../domain/userStatus';
import { ORGANIZATION_TYPES, type OrganizationTypeId } from '../../domain/organizations';

// Names of fixed lists in the reader's language.

export const statusName = (LL: TranslationFunctions, id: UserStatusId) => LL.people.status[STATUS_KEYS[id]]();
export const roleName = (LL: TranslationFunctions, id: RoleId) => LL.people.role[ROLE_KEYS[id]]();

export function orgTypeName(LL: TranslationFunctions, id: OrganizationTypeId): string {
  const code = ORGANIZATION_TYPES.find((t) => t.id === id)?.code as
    keyof TranslationFunctions['people']['orgType'] | undefined;
  return code ? LL.people.orgType[code]() : String(id);
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** Date and time in the interface language, e.g. "21 нояб. 2026 г., 12:19". */
export function formatDateTime(locale: string, ms: number): string {
  let f = formats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(locale, f);
  }
  return f.format(ms);
}
