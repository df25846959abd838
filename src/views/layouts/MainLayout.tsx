import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { useAuthActor, useCurrentUser } from '../auth/AuthProvider';

/** Sidebar and header around the back-office pages. */
export default function MainLayout({ children }: { children: ReactNode }) {
  const { LL } = useI18nContext();
  const user = useCurrentUser();
  const actor = useAuthActor();
  const [, navigate] = useLocation();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2">
        <span className="font-semibold text-slate-800">{LL.common.appName()}</span>
        <div className="flex items-center gap-3 text-sm">
          <span>{user?.fullname}</span>
          <button
            type="button"
            className="rounded px-2 py-1 text-indigo-700 hover:bg-indigo-50"
            onClick={() => {
              actor.send({ type: 'auth.logout' });
              navigate('/login');
            }}
          >
            {LL.common.logout()}
          </button>
        </div>
      </header>
      <main className="flex-1">{children}</main>
    </div>
  );
}
