import { Role } from '../../domain/roles';
import { AdminOnly } from './AdminOnly';
import { UsersPage } from './UsersPage';

const ROLES = [Role.DemoResearcher] as const;
// A demo researcher who becomes a customer is moved to Researcher from the edit form.
const ROLE_CHOICES = [Role.DemoResearcher, Role.Researcher] as const;

export default function DemoResearchersPage() {
  return (
    <AdminOnly>
      <UsersPage title={(LL) => LL.people.pages.demoResearchers()} roles={ROLES} roleChoices={ROLE_CHOICES} />
    </AdminOnly>
  );
}
