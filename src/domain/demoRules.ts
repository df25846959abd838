import { Role } from './roles';

// What a demo account may not do (docs/decisions/guides.md; demo.ts says why). Its own module, with
// nothing else in it, so that a page checking a menu item does not load the example questionnaire's
// content code that demo.ts needs (the project list did: 6 KB gzip for one comparison).

export const DEMO_REFUSED_ACTIONS = ['submit', 'link'] as const;
export type DemoRefusedAction = (typeof DEMO_REFUSED_ACTIONS)[number];

/** The code of the 403 answer, so a client can tell this refusal from a lost session. */
export const DEMO_REFUSED_CODE = 'demo-account';

export function isDemoResearcher(roleId: number | undefined): boolean {
  return roleId === Role.DemoResearcher;
}

/** Whether the role is refused the action because it is a demo account. */
export function demoRefuses(roleId: number | undefined, action: DemoRefusedAction): boolean {
  return isDemoResearcher(roleId) && (DEMO_REFUSED_ACTIONS as readonly string[]).includes(action);
}
