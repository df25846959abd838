import { Role, type RoleId } from './roles';

// The sidebar of spec section 2: items and groups with the roles that see them. A group with no
// visible child is hidden. External links carry the name of the public setting that holds their URL.

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

export interface MenuLink {
  kind: 'link';
  id: string;
  /** i18n key under shell.menu */
  label: string;
  icon: MenuIcon;
  roles: readonly RoleId[];
  to?: string;
  external?: 'analyticsUrl' | 'statisticsUrl';
}

export interface MenuGroup {
  kind: 'group';
  id: string;
  label: string;
  roles?: readonly RoleId[];
  children: MenuLink[];
}

const A = Role.Administrator;
const PROJECT_ROLES = [Role.Administrator, Role.ModeratorVK, Role.Moderator, Role.Researcher, Role.DemoResearcher];

export const MENU: readonly MenuGroup[] = [
  {
    kind: 'group',
    id: 'access',
    label: 'accessControl',
    children: [
      { kind: 'link', id: 'demo-researchers', label: 'demoResearchers', icon: 'users', roles: [A], to: '/demo-researchers' },
      { kind: 'link', id: 'researchers', label: 'researchers', icon: 'researchers', roles: [A], to: '/researchers' },
      { kind: 'link', id: 'issuers', label: 'issuers', icon: 'issuers', roles: [A], to: '/issuers' },
      { kind: 'link', id: 'moderators', label: 'moderators', icon: 'moderators', roles: [A], to: '/moderators' },
      { kind: 'link', id: 'games', label: 'games', icon: 'games', roles: [A, Role.Issuer], to: '/games' },
    ],
  },
  {
    kind: 'group',
    id: 'pricing',
    label: 'pricing',
    children: [
      { kind: 'link', id: 'calculator', label: 'calculator', icon: 'calculator', roles: [A], to: '/calculator' },
      { kind: 'link', id: 'tariffs', label: 'tariffs', icon: 'tariffs', roles: [A], to: '/tariffs' },
    ],
  },
  {
    kind: 'group',
    id: 'analytics',
    label: 'analyticsGroup',
    children: [{ kind: 'link', id: 'analytics', label: 'analytics', icon: 'analytics', roles: [A], external: 'analyticsUrl' }],
  },
  {
    kind: 'group',
    id: 'projects',
    label: 'projects',
    roles: PROJECT_ROLES,
    children: [
      { kind: 'link', id: 'questionnaires', label: 'questionnaires', icon: 'projects', roles: PROJECT_ROLES, to: '/projects' },
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
  {
    kind: 'group',
    id: 'logs',
    label: 'logsGroup',
    children: [{ kind: 'link', id: 'history', label: 'logs', icon: 'history', roles: [A], to: '/history' }],
  },
  {
    kind: 'group',
    id: 'statistics',
    label: 'statisticsGroup',
    children: [
      { kind: 'link', id: 'statistics', label: 'statistics', icon: 'statistics', roles: [A, Role.ModeratorVK], external: 'statisticsUrl' },
    ],
  },
];

/** The menu a role sees, with external links whose URL is not configured left out. */
export function menuFor(roleId: number, urls: { analyticsUrl?: string | null; statisticsUrl?: string | null } = {}): MenuGroup[] {
  return MENU.map((g) => ({
    ...g,
    children: g.children.filter(
      (c) =>
        (c.roles as readonly number[]).includes(roleId) &&
        (!g.roles || (g.roles as readonly number[]).includes(roleId)) &&
        (!c.external || !!urls[c.external]),
    ),
  })).filter((g) => g.children.length > 0);
}
