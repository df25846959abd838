import { Role } from '../../domain/roles';
import { AdminOnly } from './AdminOnly';
import { UsersPage } from './UsersPage';

const ROLES = [Role.Issuer] as const;

export default function IssuersPage() {
  return (
    <AdminOnly>
      <UsersPage title={(LL) => LL.people.pages.issuers()} roles={ROLES} />
    </AdminOnly>
  );
}
