import { Role } from '../../domain/roles';
import { AdminOnly } from './AdminOnly';
import { UsersPage } from './UsersPage';

// Moderator and Moderator VK share one page (spec section 2).
const ROLES = [Role.Moderator, Role.ModeratorVK] as const;

export default function ModeratorsPage() {
  return (
    <AdminOnly>
      <UsersPage title={(LL) => LL.people.pages.moderators()} roles={ROLES} />
    </AdminOnly>
  );
}
