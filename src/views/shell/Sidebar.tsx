import { useState, type FocusEvent, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { menuFor, type MenuLink } from '../../domain/menu';
import { useI18nContext } from '../../i18n/i18n-react';
import { ExternalIcon } from '../ui/icons';
import { MenuItemIcon } from './menuIcons';
import type { AppConfig } from './appConfig';
import { APP_VERSION } from './version';
import { AppMark } from './AppMark';

// The sidebar of spec section 2: the role's menu, 300 px wide, or a 75 px rail of icons whose
// names show as tooltips on hover and keyboard focus. The version shows at the bottom when full.

export const SIDEBAR_WIDTH = 300;
export const RAIL_WIDTH = 75;

const AFTER_GROUP = {
  full: 'mt-3 border-t border-slate-200 pt-3',
  rail: 'mt-2 border-t border-slate-100 pt-2',
};

/** A tooltip to the right of a rail icon; fixed so the sidebar's scroll box does not clip it. */
function useRailTooltip(enabled: boolean) {
  const [tip, setTip] = useState<{ text: string; top: number; left: number } | null>(null);
  const show = (text: string) => (e: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    if (!enabled) return;
    const r = e.currentTarget.getBoundingClientRect();
    setTip({ text, top: r.top + r.height / 2, left: r.right + 8 });
  };
  const hide = () => setTip(null);
  const node = tip && (
    <div
      role="tooltip"
      className="pointer-events-none fixed z-40 -translate-y-1/2 whitespace-nowrap rounded bg-slate-800 px-2 py-1 text-xs text-white shadow"
      style={{ top: tip.top, left: tip.left }}
    >
      {tip.text}
    </div>
  );
  return { show, hide, node };
}

function isActive(location: string, to: string) {
  return location === to || location.startsWith(`${to}/`);
}

export function Sidebar({
  roleId,
  collapsed,
  config,
}: {
  roleId: number;
  collapsed: boolean;
  config: AppConfig | null;
}) {
  const { LL } = useI18nContext();
  const [location] = useLocation();
  const tooltip = useRailTooltip(collapsed);
  const entries = menuFor(roleId, {
    analyticsUrl: config?.analyticsUrl,
    statisticsUrl: config?.statisticsUrl,
  });
  const label = (l: MenuLink) => LL.shell.menu[l.label]();

  const item = (l: MenuLink, liClass = ''): ReactNode => {
    const text = label(l);
    const base = `group flex items-center rounded-md text-sm transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
      collapsed ? 'mx-auto h-11 w-11 justify-center' : 'gap-3 px-3 py-2'
    }`;
    const handlers = {
      onMouseEnter: tooltip.show(text),
      onMouseLeave: tooltip.hide,
      onFocus: tooltip.show(text),
      onBlur: tooltip.hide,
    };
    const content = (
      <>
        <MenuItemIcon name={l.icon} className="h-5 w-5 shrink-0" />
        <span className={collapsed ? 'sr-only' : 'flex-1 truncate'}>{text}</span>
      </>
    );
    if (l.external) {
      const href = config?.[l.external];
      if (!href) return null;
      return (
        <li key={l.id} className={liClass}>
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            data-menu-id={l.id}
            aria-label={LL.shell.menu.opensInNewTab({ label: text })}
            className={`${base} text-slate-700 hover:bg-slate-100`}
            {...handlers}
          >
            {content}
            {!collapsed && <ExternalIcon className="h-4 w-4 shrink-0 text-slate-600" />}
          </a>
        </li>
      );
    }
    const active = isActive(location, l.to!);
    return (
      <li key={l.id} className={liClass}>
        <Link
          href={l.to!}
          data-menu-id={l.id}
          aria-current={active ? 'page' : undefined}
          className={`${base} ${active ? 'bg-indigo-50 font-medium text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`}
          {...handlers}
        >
          {content}
        </Link>
      </li>
    );
  };

  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      style={{ width: collapsed ? RAIL_WIDTH : SIDEBAR_WIDTH }}
      className="flex h-full shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-200"
    >
      <div
        className={`flex h-14 shrink-0 items-center border-b border-slate-200 ${collapsed ? 'justify-center' : 'gap-3 px-4'}`}
      >
        <AppMark size={32} />
        {!collapsed && <span className="truncate font-semibold text-slate-800">{LL.common.appName()}</span>}
      </div>
      <nav
        aria-label={LL.shell.layout.mainNavigation()}
        className="flex-1 overflow-y-auto overflow-x-hidden py-3"
      >
        <ul className={`flex flex-col ${collapsed ? 'gap-1' : 'gap-0.5 px-3'}`}>
          {entries.map((e, i) =>
            e.kind === 'link' ? (
              // A link right after a group starts a new section: without the rule it reads as the
              // group's last child.
              item(e, entries[i - 1]?.kind === 'group' ? AFTER_GROUP[collapsed ? 'rail' : 'full'] : '')
            ) : (
              <li
                key={e.id}
                data-menu-group={e.id}
                className={
                  collapsed
                    ? 'mt-2 border-t border-slate-100 pt-2 first:mt-0 first:border-0 first:pt-0'
                    : 'mt-3 first:mt-0'
                }
              >
                {collapsed ? (
                  <span className="sr-only" id={`menu-group-${e.id}`}>
                    {LL.shell.menu[e.label]()}
                  </span>
                ) : (
                  <span
                    id={`menu-group-${e.id}`}
                    className="block px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600"
                  >
                    {LL.shell.menu[e.label]()}
                  </span>
                )}
                <ul
                  aria-labelledby={`menu-group-${e.id}`}
                  className={`flex flex-col ${collapsed ? 'gap-1' : 'ml-3 gap-0.5 border-l border-slate-200 pl-2'}`}
                >
                  {e.children.map((c) => item(c))}
                </ul>
              </li>
            ),
          )}
        </ul>
      </nav>
      {!collapsed && (
        <p
          data-testid="app-version"
          className="shrink-0 border-t border-slate-200 px-4 py-2 text-xs text-slate-600"
        >
          {LL.shell.menu.version({ version: config?.version ?? APP_VERSION })}
        </p>
      )}
      {tooltip.node}
    </aside>
  );
}
