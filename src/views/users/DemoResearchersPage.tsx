import { Role } from '../../domain/roles';
import { AdminOnly } from './AdminOnly';
import { UsersPage } from './UsersPage';

const ROLES = [Role.DemoResearcher] as const;

export default function DemoResearchersPage() {
  return (
    <AdminOnly>
      <UsersPage title={(LL) => LL.people.pages.demoResearchers()} roles={ROLES} />
    </AdminOnly>
  );
}
