import { Role } from '../../domain/roles';
import { AdminOnly } from './AdminOnly';
import { UsersPage } from './UsersPage';

const ROLES = [Role.Researcher] as const;

export default function ResearchersPage() {
  return (
    <AdminOnly>
      <UsersPage title={(LL) => LL.people.pages.researchers()} roles={ROLES} />
    </AdminOnly>
  );
}
