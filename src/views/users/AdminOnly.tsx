import type { ReactNode } from 'react';
import { Role } from '../../domain/roles';
import { useCurrentUser } from '../auth/AuthProvider';
import NotFoundPage from '../ui/NotFoundPage';

/**
 * Pages only an Administrator may open. The server refuses the calls anyway; asking it would answer
 * 403, and the client signs out on 403 (spec section 8), so another role sees the 404 page instead,
 * as the spec's role check on routes does.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (!user) return null;
  return user.role.id === Role.Administrator ? <>{children}</> : <NotFoundPage />;
}
