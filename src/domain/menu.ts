import { Role, type RoleId } from './roles';

// The sidebar of spec section 2: top-level items and groups with the roles that see them. A group
// with no visible child is hidden. External links carry the name of the public setting that holds
// their URL and are left out while that setting is unset.
//
// Games stands alone rather than inside Access control: an issuer sees it, and an issuer's sidebar
// with an "Access control" heading over their own games would say something untrue
// (docs/decisions/shell.md).

export type MenuIcon =
  | 'users'
  | 'researchers'
  | 'issuers'
  | 'moderators'
  | 'games'
  | 'calculator'
  | 'tariffs'
  | 'analytics'
  | 'projects'
  | 'reports'
  | 'history'
  | 'statistics';

export type ExternalSetting = 'analyticsUrl' | 'statisticsUrl';

export interface MenuLink {
  kind: 'link';
  id: string;
  /** i18n key under shell.menu */
  label: MenuLabel;
  icon: MenuIcon;
  roles: readonly RoleId[];
  /** An in-app route… */
  to?: string;
  /** …or an external dashboard opened in a new tab. */
  external?: ExternalSetting;
}

export interface MenuGroup {
  kind: 'group';
  id: string;
  label: MenuLabel;
  /** Roles that may see the group at all; a child needs its own role too. */
  roles?: readonly RoleId[];
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export type MenuLabel =
  | 'accessControl'
  | 'demoResearchers'
  | 'researchers'
  | 'issuers'
  | 'moderators'
  | 'games'
  | 'pricing'
  | 'calculator'
  | 'tariffs'
  | 'analytics'
  | 'projects'
  | 'questionnaires'
  | 'reports'
  | 'logs'
  | 'statistics';

const A = Role.Administrator;
export const PROJECT_ROLES: readonly RoleId[] = [
  Role.Administrator,
  Role.ModeratorVK,
  Role.Moderator,
  Role.Researcher,
  Role.DemoResearcher,
];

export const MENU: readonly MenuEntry[] = [
  {
    kind: 'group',
    id: 'access',
    label: 'accessControl',
    children: [
      {
        kind: 'link',
        id: 'demo-researchers',
        label: 'demoResearchers',
        icon: 'users',
        roles: [A],
        to: '/demo-researchers',
      },
      {
        kind: 'link',
        id: 'researchers',
        label: 'researchers',
        icon: 'researchers',
        roles: [A],
        to: '/researchers',
      },
      { kind: 'link', id: 'issuers', label: 'issuers', icon: 'issuers', roles: [A], to: '/issuers' },
      {
        kind: 'link',
        id: 'moderators',
        label: 'moderators',
        icon: 'moderators',
        roles: [A],
        to: '/moderators',
      },
    ],
  },
  { kind: 'link', id: 'games', label: 'games', icon: 'games', roles: [A, Role.Issuer], to: '/games' },
  {
    kind: 'group',
    id: 'pricing',
    label: 'pricing',
    children: [
      {
        kind: 'link',
        id: 'calculator',
        label: 'calculator',
        icon: 'calculator',
        roles: [A],
        to: '/calculator',
      },
      { kind: 'link', id: 'tariffs', label: 'tariffs', icon: 'tariffs', roles: [A], to: '/tariffs' },
    ],
  },
  {
    kind: 'link',
    id: 'analytics',
    label: 'analytics',
    icon: 'analytics',
    roles: [A],
    external: 'analyticsUrl',
  },
  {
    kind: 'group',
    id: 'projects',
    label: 'projects',
    roles: PROJECT_ROLES,
    children: [
      {
        kind: 'link',
        id: 'questionnaires',
        label: 'questionnaires',
        icon: 'projects',
        roles: PROJECT_ROLES,
        to: '/projects',
      },
      {
        kind: 'link',
        id: 'reports',
        label: 'reports',
        icon: 'reports',
        roles: [A, Role.Researcher, Role.DemoResearcher],
        to: '/reports',
      },
    ],
  },
  { kind: 'link', id: 'history', label: 'logs', icon: 'history', roles: [A], to: '/history' },
  {
    kind: 'link',
    id: 'statistics',
    label: 'statistics',
    icon: 'statistics',
    roles: [A, Role.ModeratorVK],
    external: 'statisticsUrl',
  },
];

export type ExternalUrls = Partial<Record<ExternalSetting, string | null>>;

function visible(link: MenuLink, roleId: number, urls: ExternalUrls): boolean {
  return (link.roles as readonly number[]).includes(roleId) && (!link.external || !!urls[link.external]);
}

/** The menu a role sees: hidden items dropped, empty groups dropped, unset external links dropped. */
export function menuFor(roleId: number, urls: ExternalUrls = {}): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const entry of MENU) {
    if (entry.kind === 'link') {
      if (visible(entry, roleId, urls)) out.push(entry);
      continue;
    }
    if (entry.roles && !(entry.roles as readonly number[]).includes(roleId)) continue;
    const children = entry.children.filter((c) => visible(c, roleId, urls));
    if (children.length > 0) out.push({ ...entry, children });
  }
  return out;
}

/** Whether a role may open an in-app path: menu pages only for the roles that see them, others for all. */
export function pageAllowed(path: string, roleId: number): boolean {
  const links = MENU.flatMap((e) => (e.kind === 'link' ? [e] : e.children)).filter((l) => l.to === path);
  return links.length === 0 || links.some((l) => (l.roles as readonly number[]).includes(roleId));
}

/** Every in-app path of the menu (each has a route in src/views/routes.tsx). */
export function menuPaths(): string[] {
  return MENU.flatMap((e) => (e.kind === 'link' ? [e] : e.children)).flatMap((l) => (l.to ? [l.to] : []));
}
