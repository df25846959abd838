import { useId } from 'react';
import { Link, useLocation } from 'wouter';
import { guideForPage } from '../../domain/guides';
import { Role } from '../../domain/roles';
import type { User } from '../../domain/user';
import type { Locales } from '../../i18n/i18n-types';
import { useI18nContext } from '../../i18n/i18n-react';
import { locales } from '../../i18n/i18n-util';
import { IconButton } from '../ui/Button';
import { confirm } from '../ui/confirm';
import { Disclosure, DropdownMenu, MenuItem } from '../ui/Dropdown';
import { HelpIcon, LogoutIcon, MenuToggleIcon, SettingsIcon, UserIcon } from '../ui/icons';
import { openGuide } from './guide';
import { roleLabel } from './roles';
import { updateSettings, useSettings } from './settings';

// The header of spec section 2: menu toggle, help (demo researchers only), settings, user menu.

/** Stores the new language and reloads, after the user agreed (spec: "asks for confirmation"). */
export async function changeLanguage(
  next: Locales,
  LL: ReturnType<typeof useI18nContext>['LL'],
): Promise<boolean> {
  const agreed = await confirm({
    title: LL.shell.settings.languageConfirmTitle(),
    text: LL.shell.settings.languageConfirmText({ language: LL.shell.languages[next]() }),
    agreeLabel: LL.shell.settings.languageConfirmAgree(),
  });
  if (!agreed) return false;
  updateSettings({ locale: next });
  window.location.reload();
  return true;
}

function SettingsMenu() {
  const { LL, locale } = useI18nContext();
  const settings = useSettings();
  const checkboxId = useId();
  const selectId = useId();
  return (
    <Disclosure
      label={LL.shell.header.settings()}
      buttonClassName="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-[open]:bg-slate-100"
      buttonContent={<SettingsIcon />}
      panelClassName="absolute right-0 top-full z-[70] mt-1.5 w-72 rounded-lg border border-slate-200 bg-white p-4 shadow-lg focus:outline-none"
    >
      <h2 className="mb-3 text-sm font-semibold text-slate-800">{LL.shell.settings.title()}</h2>
      <div className="mb-4 flex items-center gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          checked={!!settings.hideSideMenu}
          onChange={(e) => updateSettings({ hideSideMenu: e.target.checked })}
          className="h-4 w-4 rounded border-slate-300 text-indigo-700 focus:ring-indigo-500"
        />
        <label htmlFor={checkboxId} className="text-sm text-slate-700">
          {LL.shell.settings.hideSideMenu()}
        </label>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
          {LL.shell.settings.language()}
        </label>
        <select
          id={selectId}
          value={locale}
          onChange={(e) => void changeLanguage(e.target.value as Locales, LL)}
          className="rounded border border-slate-300 px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-indigo-500"
        >
          {locales.map((l) => (
            <option key={l} value={l}>
              {LL.shell.languages[l]()}
            </option>
          ))}
        </select>
      </div>
    </Disclosure>
  );
}

function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const { LL } = useI18nContext();
  const itemClass =
    'flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:text-slate-900 focus:outline-none';
  return (
    <DropdownMenu
      label={LL.shell.header.userMenuOf({ name: user.fullname })}
      buttonClassName="inline-flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-[open]:bg-slate-100"
      buttonContent={
        <>
          <span className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
            <UserIcon className="h-5 w-5" />
          </span>
          <span className="hidden max-w-48 truncate sm:inline">{user.fullname}</span>
        </>
      }
      gap={6}
      panelClassName="z-[70] w-64 rounded-lg border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
    >
      <div className="border-b border-slate-100 px-3 py-2" data-testid="user-menu-identity">
        <p className="truncate text-sm font-medium text-slate-800">{user.fullname}</p>
        <p className="truncate text-xs text-slate-600">{roleLabel(LL, user.role)}</p>
      </div>
      <Link href="/profile" role="menuitem" tabIndex={-1} className={itemClass}>
        <UserIcon className="h-4 w-4" />
        {LL.common.profile()}
      </Link>
      <MenuItem onSelect={onLogout} className={itemClass}>
        <LogoutIcon className="h-4 w-4" />
        {LL.common.logout()}
      </MenuItem>
    </DropdownMenu>
  );
}

export function Header({
  user,
  sidebar,
  onToggleMenu,
  onLogout,
}: {
  user: User;
  sidebar: 'full' | 'rail' | 'hidden';
  onToggleMenu: () => void;
  onLogout: () => void;
}) {
  const { LL } = useI18nContext();
  const [location] = useLocation();
  const toggleLabel =
    sidebar === 'hidden'
      ? LL.shell.header.showMenu()
      : sidebar === 'rail'
        ? LL.shell.header.expandMenu()
        : LL.shell.header.collapseMenu();
  return (
    <header className="flex h-14 shrink-0 items-center justify-between gap-3 border-b border-slate-200 bg-white px-3">
      <IconButton
        label={toggleLabel}
        aria-expanded={sidebar === 'full'}
        onClick={onToggleMenu}
        data-testid="menu-toggle"
      >
        <MenuToggleIcon />
      </IconButton>
      <div className="flex items-center gap-1">
        {user.role.id === Role.DemoResearcher && (
          <IconButton label={LL.shell.header.help()} onClick={() => openGuide(guideForPage(location))}>
            <HelpIcon />
          </IconButton>
        )}
        <SettingsMenu />
        <UserMenu user={user} onLogout={onLogout} />
      </div>
    </header>
  );
}
