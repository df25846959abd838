import { Role, type RoleId } from '../../src/domain/roles';
import { PERMISSIONS, type Permission } from '../../src/domain/permissions';

// Who may make each call: the expectation table of the role × call matrix (matrix.test.ts) and the
// fuzzer (fuzz.test.ts). One row per route of the route table ("METHOD /path" under
// /api/v1/service). A row is one of:
//   { public: 'why' }          anyone, signed in or not (sign-in, registration, pictures, the SDK…);
//   { roles: [...] }           these roles get past the role check; everyone else gets 403;
//   { permission: 'x.y' }      the roles of that permission in src/domain/permissions.ts.
// "Gets past" is judged with an empty body: admitted roles get anything but 401/403 (mostly 400),
// refused roles exactly 403, callers not signed in exactly 401. Which objects a role may touch
// (its organization's projects…) is tested by each resource's own tests.
// A route without a row fails the matrix with the row to add; add it here.

export type Access = { public: string } | { roles: readonly RoleId[] } | { permission: Permission };

const { Administrator: A, Researcher, Issuer, DemoResearcher } = Role;
const ALL: readonly RoleId[] = Object.values(Role);
const except = (...roles: RoleId[]) => ALL.filter((r) => !roles.includes(r));

export const ACCESS: Record<string, Access> = {
  // Session and profile
  'POST /authentication/login': { public: 'signing in' },
  'POST /authentication/logout': { public: 'ends the sign-in it carries, if any' },
  'GET /app-config': { public: 'the login page reads it' },
  'GET /user': { roles: ALL },
  'PUT /user/password-reset': { roles: ALL },
  // Invitations and registration (links from mails, spec section 2)
  'POST /invitations/resend': { roles: [A] },
  'POST /invitations/confirm': { public: 'the invitation link' },
  'POST /user/password-reset': { public: 'the password link' },
  'POST /researcher': { public: 'self-registration' },
  'POST /user/password-forgot': { public: 'forgotten password' },
  // People
  'GET /users': { roles: [A] },
  'POST /user': { roles: [A] },
  'PUT /user': { roles: ALL },
  'DELETE /user': { roles: [A] },
  'GET /categories': { roles: ALL },
  'GET /organizations': { roles: ALL },
  'GET /organization': { roles: ALL },
  'POST /organizations': { roles: [A] },
  'GET /history': { roles: [A] },
  'GET /history/chapters': { roles: [A] },
  // Games
  'GET /games/genres': { roles: [A, Issuer] },
  'POST /games/genres': { roles: [A, Issuer] },
  'GET /games/platforms': { roles: [A, Issuer] },
  'POST /games/platforms': { permission: 'games.create-platform' },
  'GET /games/currencies': { roles: [A, Issuer] },
  'GET /games': { roles: [A, Issuer] },
  'GET /game': { roles: [A, Issuer] },
  'POST /games': { roles: [A, Issuer] },
  'PUT /game': { roles: [A, Issuer] },
  'DELETE /game': { roles: [A, Issuer] },
  'POST /game/secrets': { roles: [A, Issuer] },
  'POST /games/sdk': { public: 'games call it with their API key' },
  'POST /games/sdk/survey': { public: 'games call it with their API key and token' },
  // Respondents (the link's token, an SDK ticket or the resume token are the credentials)
  'GET /survey/:token': { public: 'a survey link' },
  'POST /survey/:token/start': { public: 'a survey link' },
  'GET /survey/session': { public: 'the respondent’s resume token' },
  'POST /survey/answer': { public: 'the respondent’s resume token' },
  'GET /survey/places': { public: 'the respondent’s resume token' },
  'GET /survey/:token/places': { public: 'a survey link (the profile step, before the respondent starts)' },
  // Pricing: the Administrator's alone (spec section 6, issue #17)
  'GET /tariffs': { roles: [A] },
  'POST /tariffs': { roles: [A] },
  'PUT /tariff': { roles: [A] },
  'DELETE /tariff': { roles: [A] },
  'GET /tariffs/calculator': { roles: [A] },
  'POST /tariffs/calculator': { roles: [A] },
  'GET /vk/percent': { roles: [A] },
  'POST /vk/percent': { roles: [A] },
  // Projects
  'GET /projects': { roles: except(Issuer) },
  'GET /project/templates': { roles: ALL },
  'GET /project/template': { roles: ALL },
  'POST /projects': { roles: [A, Researcher, DemoResearcher] },
  'PUT /project': { roles: ALL },
  'DELETE /project': { roles: ALL },
  'POST /project/clone': { permission: 'project.clone' },
  'POST /project/status': { roles: ALL },
  'GET /project/link': { roles: ALL },
  'GET /project/settings': { roles: ALL },
  'GET /project/settings-groups': { roles: ALL },
  'GET /project/project-settings': { roles: ALL },
  'GET /project/stats/file': { roles: ALL },
  // Respondents one by one (issue 31): read as the report is; changed by the project's researchers.
  'GET /project/respondents': { roles: ALL },
  'GET /project/respondent': { roles: ALL },
  'GET /project/respondents/file': { roles: ALL },
  'POST /project/respondents/exclusion': { roles: [A, Researcher] },
  'DELETE /project/respondent': { roles: [A, Researcher] },
  'POST /project/project-settings': { permission: 'project-editor.change-project-settings' },
  // Lookups
  'GET /target-platforms': { roles: ALL },
  'GET /target-fields': { roles: ALL },
  'GET /cities': { roles: ALL },
  // The editor's price estimate: derived figures for one project the caller sees, never the settings.
  'GET /project/price': { roles: ALL },
  // Review settings on moderation: holders of project-editor.change-block-settings or
  // question.change-custom-params (both Administrator and Moderator).
  'POST /project/review-settings': { roles: [A, Role.Moderator] },
  // Questionnaire content and pictures
  'GET /project': { roles: ALL },
  'POST /project': { roles: ALL },
  'POST /picture': { roles: [A, Researcher, DemoResearcher] },
  'GET /pictures/:file': { public: 'respondents see the pictures' },
  // Version history (issue #16): whoever may read the project
  'GET /project/versions': { roles: ALL },
  'GET /project/version': { roles: ALL },
  // OpenAPI (issue #17, item 12)
  'GET /openapi.json': { public: 'the API description' },
  'GET /docs': { public: 'the API documentation page' },
  // Players' records and a game's numbers (issue 24): the game's Issuer and the Administrator
  'GET /games/player': { roles: [A, Issuer] },
  'DELETE /games/player': { roles: [A, Issuer] },
  'GET /games/stats': { roles: [A, Issuer] },
  // Block callbacks (issue 24): the log for whoever reads the project; the secret, retries and
  // test calls for the roles that change block settings.
  'GET /project/callbacks': { roles: ALL },
  'GET /project/callback-secret': { permission: 'project-editor.change-block-settings' },
  'POST /project/callback-secret': { permission: 'project-editor.change-block-settings' },
  'POST /project/callbacks/retry': { permission: 'project-editor.change-block-settings' },
  'POST /project/callbacks/test': { permission: 'project-editor.change-block-settings' },
  // Crosstabs (issue 23): whoever may read the report
  'GET /project/stats/crosstab': { roles: ALL },
};

/** The roles a row admits; null for a public route. */
export function admittedRoles(access: Access): readonly RoleId[] | null {
  if ('public' in access) return null;
  if ('permission' in access) return PERMISSIONS[access.permission];
  return access.roles;
}
