import { describe, expect, it } from 'vitest';
import { menuFor, menuPaths, MENU, type MenuEntry } from '../../src/domain/menu';
import { Role, type RoleName } from '../../src/domain/roles';
import { ROUTES } from '../../src/views/routes';

// The sidebar table of spec section 2, written out again here by hand (not derived from MENU), so
// that a change to src/domain/menu.ts that breaks the spec fails this test.
const A = 'Administrator',
  M = 'Moderator',
  MVK = 'ModeratorVK',
  R = 'Researcher',
  I = 'Issuer',
  D = 'DemoResearcher';
const SPEC: Record<string, RoleName[]> = {
  'demo-researchers': [A],
  researchers: [A],
  issuers: [A],
  moderators: [A],
  games: [A, I],
  calculator: [A],
  tariffs: [A],
  analytics: [A],
  questionnaires: [A, MVK, M, R, D],
  reports: [A, R, D],
  history: [A],
  statistics: [A, MVK],
};
const URLS = { analyticsUrl: 'https://a.example', statisticsUrl: 'https://s.example' };

const ids = (entries: MenuEntry[]) =>
  entries.flatMap((e) => (e.kind === 'link' ? [e.id] : e.children.map((c) => c.id)));

describe('sidebar menu by role (spec section 2)', () => {
  for (const [name, roleId] of Object.entries(Role) as [RoleName, number][]) {
    it(`shows ${name} exactly the items the spec gives that role`, () => {
      const expected = Object.entries(SPEC)
        .filter(([, roles]) => roles.includes(name))
        .map(([id]) => id)
        .sort();
      expect(ids(menuFor(roleId, URLS)).sort()).toEqual(expected);
    });
  }

  it('keeps the spec order: access control, games, pricing, analytics, projects, logs, statistics', () => {
    expect(ids(menuFor(Role.Administrator, URLS))).toEqual([
      'demo-researchers',
      'researchers',
      'issuers',
      'moderators',
      'games',
      'calculator',
      'tariffs',
      'analytics',
      'questionnaires',
      'reports',
      'history',
      'statistics',
    ]);
  });

  it('groups Demo researchers, Researchers, Issuers, Moderators under Access control; Calculator and Tariffs under Pricing; Questionnaires and Reports under Projects', () => {
    const groups = Object.fromEntries(
      menuFor(Role.Administrator, URLS)
        .filter((e) => e.kind === 'group')
        .map((g) => [g.label, g.kind === 'group' ? g.children.map((c) => c.id) : []]),
    );
    expect(groups).toEqual({
      accessControl: ['demo-researchers', 'researchers', 'issuers', 'moderators'],
      pricing: ['calculator', 'tariffs'],
      projects: ['questionnaires', 'reports'],
    });
  });

  it('hides a group with no visible child', () => {
    const issuer = menuFor(Role.Issuer, URLS);
    expect(issuer.map((e) => e.id)).toEqual(['games']);
    const moderator = menuFor(Role.Moderator, URLS);
    expect(moderator.map((e) => e.id)).toEqual(['projects']);
    expect(moderator[0].kind === 'group' && moderator[0].children.map((c) => c.id)).toEqual([
      'questionnaires',
    ]);
  });

  it('leaves out Analytics and Statistics while their URLs are unset, and shows each alone when set', () => {
    expect(ids(menuFor(Role.Administrator))).not.toContain('analytics');
    expect(ids(menuFor(Role.Administrator))).not.toContain('statistics');
    expect(ids(menuFor(Role.ModeratorVK))).toEqual(['questionnaires']);
    expect(ids(menuFor(Role.ModeratorVK, { statisticsUrl: 'https://s.example' }))).toEqual([
      'questionnaires',
      'statistics',
    ]);
    expect(ids(menuFor(Role.Administrator, { analyticsUrl: 'https://a.example' }))).toContain('analytics');
    expect(ids(menuFor(Role.Administrator, { analyticsUrl: 'https://a.example' }))).not.toContain(
      'statistics',
    );
  });

  it('shows nothing to an unknown role', () => {
    expect(menuFor(99, URLS)).toEqual([]);
  });

  it('links every in-app item to a route of the main layout', () => {
    const main = new Set(ROUTES.filter((r) => r.layout === 'main').map((r) => r.path));
    expect(menuPaths().length).toBe(10);
    for (const p of menuPaths()) expect(main.has(p), p).toBe(true);
  });

  it('gives every item either a route or an external setting, never both', () => {
    for (const l of MENU.flatMap((e) => (e.kind === 'link' ? [e] : e.children))) {
      expect(!!l.to !== !!l.external, l.id).toBe(true);
    }
  });
});
