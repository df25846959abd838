import type { MouseEvent, ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { useAuthActor, useCurrentUser } from '../auth/AuthProvider';
import { useSelector } from '@xstate/react';
import { useAppConfig } from '../shell/appConfig';
import { useFirstLoginGuide } from '../shell/guide';
import { Header } from '../shell/Header';
import { updateSettings, useSettings } from '../shell/settings';
import { Sidebar } from '../shell/Sidebar';
import { signOutEverywhereInTab } from '../shell/logout';

/** Sidebar and header around the back-office pages (spec section 2). */
export default function MainLayout({ children }: { children: ReactNode }) {
  const { LL } = useI18nContext();
  const user = useCurrentUser();
  const actor = useAuthActor();
  const offline = useSelector(actor, (s) => s.context.offline);
  const [, navigate] = useLocation();
  const settings = useSettings();
  const config = useAppConfig();
  useFirstLoginGuide(user);

  if (!user) return null;
  const sidebar = settings.hideSideMenu ? 'hidden' : settings.shrinkSideMenu ? 'rail' : 'full';
  const toggle = () => {
    if (settings.hideSideMenu) updateSettings({ hideSideMenu: false });
    else updateSettings({ shrinkSideMenu: !settings.shrinkSideMenu });
  };
  // On a narrow screen the expanded menu is a drawer over the page: following one of its links
  // closes it (the layout may be mounted afresh for the next page, so this is done on the click).
  const closeDrawerOnLink = (e: MouseEvent) => {
    if (!(e.target instanceof Element) || !e.target.closest('a[href]')) return;
    if (window.matchMedia('(max-width: 767px)').matches) updateSettings({ shrinkSideMenu: true });
  };
  const logout = () => {
    signOutEverywhereInTab(actor);
    navigate('/login');
  };

  return (
    <div className="flex h-screen overflow-hidden bg-slate-50">
      <a
        href="#content"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-indigo-700 shadow focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        {LL.shell.layout.skipToContent()}
      </a>
      {sidebar !== 'hidden' && (
        <>
          {/* On a narrow screen the expanded menu lies over the page (300 px of a 360 px phone left
              the page 60): a backdrop beside it collapses it back to the rail. */}
          {sidebar === 'full' && (
            <button
              type="button"
              aria-label={LL.shell.header.collapseMenu()}
              onClick={toggle}
              data-testid="menu-backdrop"
              className="fixed inset-0 z-30 bg-slate-900/30 md:hidden"
            />
          )}
          <div
            onClickCapture={sidebar === 'full' ? closeDrawerOnLink : undefined}
            className={
              sidebar === 'full'
                ? 'h-full shrink-0 max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-40 max-md:shadow-xl'
                : 'h-full shrink-0'
            }
          >
            <Sidebar roleId={user.role.id} collapsed={sidebar === 'rail'} config={config} />
          </div>
        </>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <Header user={user} sidebar={sidebar} onToggleMenu={toggle} onLogout={logout} />
        {offline && (
          <p role="status" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
            {LL.shell.layout.offline()}
          </p>
        )}
        {/* relative: visually hidden (absolute) texts stay inside the scrolling area instead of
            stretching the window below the page's end. */}
        <main id="content" tabIndex={-1} className="relative flex-1 overflow-auto focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
