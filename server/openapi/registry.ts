import type * as v from 'valibot';
import { SaveProjectBody, PidQuery as ContentPidQuery } from '../../src/domain/content/model';
import { VersionQuery, VersionsQuery } from '../../src/domain/content/versions';
import {
  GameCreateBody,
  GameIdBody,
  GameIdQuery,
  GamesQuery,
  GameUpdateBody,
  LookupCreateBody,
  SdkHandshakeBody,
} from '../../src/domain/games';
import { HistoryQuery } from '../../src/domain/history';
import { CitiesQuery } from '../../src/domain/lookups';
import {
  OrganizationCreateBody,
  OrganizationQuery,
  OrganizationsQuery,
} from '../../src/domain/organizations';
import {
  CalculatorBody,
  TariffBody,
  TariffIdBody,
  TariffsQuery,
  TariffUpdateBody,
  VkPercentBody,
} from '../../src/domain/pricing';
import { ProjectSettingsBody } from '../../src/domain/projectSettings';
import { ProjectPriceQuery } from '../../src/domain/projectPrice';
import { ReviewSettingsBody } from '../../src/domain/reviewSettings';
import { ReportQuery } from '../../src/domain/reports';
import { CrosstabQuery } from '../../src/domain/crosstab';
import {
  CloneProjectBody,
  CreateProjectBody,
  IdQuery,
  PidQuery,
  ProjectsQuery,
  SetStatusBody,
  UpdateProjectBody,
} from '../../src/domain/projects';
import { TemplateQuery } from '../../src/domain/templates';
import {
  ForgotPasswordBody,
  PasswordByTokenBody,
  RegisterBody,
  TokenBody,
  UserCreateBody,
  UserIdBody,
  UserQuery,
  UsersQuery,
  UserUpdateBody,
} from '../../src/domain/users';
import { LoginBody, PasswordSetBody } from '../../src/domain/validation';
import { AnswerBody } from '../survey/respond';
import { PlacesQuery, SdkSurveyBody, StartBody } from '../routes/survey';
import { PlayerBody, PlayerQuery, StatsQuery } from '../../src/domain/players';
import { CallbacksQuery, RetryBody, SecretBody, TestCallBody } from '../../src/domain/callbacks';
import {
  EraseBody,
  ExclusionBody,
  RespondentQuery,
  RespondentsFileQuery,
  RespondentsQuery,
} from '../../src/domain/responses';

// What the route table cannot know by itself: each route's one-line summary and the valibot schemas
// its handler parses the query and the body with (the same objects, so the OpenAPI document cannot
// drift from the validation). Keyed like the route table ("METHOD /path"). A route missing here is
// still in the document, without schemas; tests/server/openapi.test.ts names it.

export interface RouteDoc {
  summary: string;
  tag: string;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /** multipart/form-data with these file fields instead of JSON. */
  multipart?: string[];
}

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /authentication/login': {
    tag: 'session',
    summary: 'Sign in; tokens in the x-auth-token and x-refresh-token headers',
    body: LoginBody,
  },
  'POST /authentication/logout': { tag: 'session', summary: 'End the sign-in the call carries' },
  'GET /user': {
    tag: 'session',
    summary: 'A user’s profile (one’s own unless an Administrator asks)',
    query: UserQuery,
  },
  'PUT /user/password-reset': { tag: 'session', summary: 'Set a user’s password', body: PasswordSetBody },
  'GET /app-config': { tag: 'session', summary: 'Settings the login page needs' },
  'POST /invitations/resend': { tag: 'people', summary: 'Mail an invitation again', body: UserIdBody },
  'POST /invitations/confirm': {
    tag: 'people',
    summary: 'Check an invitation or password link',
    body: TokenBody,
  },
  'POST /user/password-reset': {
    tag: 'people',
    summary: 'Set a password with a mailed link',
    body: PasswordByTokenBody,
  },
  'POST /researcher': { tag: 'people', summary: 'Register as a demo researcher', body: RegisterBody },
  'POST /user/password-forgot': { tag: 'people', summary: 'Mail a password link', body: ForgotPasswordBody },
  'GET /users': { tag: 'people', summary: 'Users, paged (x-total-count header)', query: UsersQuery },
  'POST /user': { tag: 'people', summary: 'Create a user', body: UserCreateBody },
  'PUT /user': { tag: 'people', summary: 'Change a user', body: UserUpdateBody },
  'DELETE /user': { tag: 'people', summary: 'Delete a user', body: UserIdBody },
  'GET /categories': { tag: 'people', summary: 'Organization categories' },
  'GET /organizations': { tag: 'people', summary: 'Organizations, paged', query: OrganizationsQuery },
  'GET /organization': { tag: 'people', summary: 'One organization', query: OrganizationQuery },
  'POST /organizations': { tag: 'people', summary: 'Create an organization', body: OrganizationCreateBody },
  'GET /history': { tag: 'people', summary: 'The log, newest first', query: HistoryQuery },
  'GET /history/chapters': { tag: 'people', summary: 'The log’s chapters' },
  'GET /games/genres': { tag: 'games', summary: 'Game genres' },
  'POST /games/genres': { tag: 'games', summary: 'Add a game genre', body: LookupCreateBody },
  'GET /games/platforms': { tag: 'games', summary: 'Game platforms' },
  'POST /games/platforms': { tag: 'games', summary: 'Add a game platform', body: LookupCreateBody },
  'GET /games/currencies': { tag: 'games', summary: 'Game currencies' },
  'GET /games': { tag: 'games', summary: 'Games, paged', query: GamesQuery },
  'GET /game': { tag: 'games', summary: 'One game', query: GameIdQuery },
  'POST /games': { tag: 'games', summary: 'Create a game', body: GameCreateBody },
  'PUT /game': { tag: 'games', summary: 'Change a game', body: GameUpdateBody },
  'DELETE /game': { tag: 'games', summary: 'Delete a game', body: GameIdBody },
  'POST /game/secrets': { tag: 'games', summary: 'A game’s API key and secret', body: GameIdBody },
  'POST /games/sdk': { tag: 'games', summary: 'The SDK’s handshake', body: SdkHandshakeBody },
  'GET /tariffs': { tag: 'pricing', summary: 'Tariffs, paged', query: TariffsQuery },
  'POST /tariffs': { tag: 'pricing', summary: 'Create a tariff', body: TariffBody },
  'PUT /tariff': { tag: 'pricing', summary: 'Change a tariff', body: TariffUpdateBody },
  'DELETE /tariff': { tag: 'pricing', summary: 'Delete a tariff', body: TariffIdBody },
  'GET /tariffs/calculator': { tag: 'pricing', summary: 'The calculator’s settings (Administrator)' },
  'POST /tariffs/calculator': {
    tag: 'pricing',
    summary: 'Save the calculator’s settings',
    body: CalculatorBody,
  },
  'GET /vk/percent': { tag: 'pricing', summary: 'The VK percent (Administrator)' },
  'POST /vk/percent': { tag: 'pricing', summary: 'Save the VK percent', body: VkPercentBody },
  'GET /projects': { tag: 'projects', summary: 'Projects, paged', query: ProjectsQuery },
  'GET /project/templates': { tag: 'projects', summary: 'Project templates the caller may use' },
  'GET /project/template': { tag: 'projects', summary: 'One project template', query: TemplateQuery },
  'POST /projects': { tag: 'projects', summary: 'Create a project', body: CreateProjectBody },
  'PUT /project': { tag: 'projects', summary: 'Rename or reprioritize a project', body: UpdateProjectBody },
  'DELETE /project': { tag: 'projects', summary: 'Delete a project', query: IdQuery },
  'POST /project/clone': { tag: 'projects', summary: 'Copy a project', body: CloneProjectBody },
  'POST /project/status': { tag: 'projects', summary: 'Change a project’s status', body: SetStatusBody },
  'GET /project/link': {
    tag: 'projects',
    summary: 'The survey link (sends a project being written to moderation)',
    query: PidQuery,
  },
  'GET /project/settings': { tag: 'projects', summary: 'Project settings, described' },
  'GET /project/settings-groups': { tag: 'projects', summary: 'Groups of project settings' },
  'GET /project/project-settings': { tag: 'projects', summary: 'A project’s settings', query: PidQuery },
  'POST /project/project-settings': {
    tag: 'projects',
    summary: 'Save a project’s settings',
    body: ProjectSettingsBody,
  },
  'GET /project/stats/file': {
    tag: 'projects',
    summary: 'A project’s report: JSON, or a streamed XLSX, CSV or SPSS (.sav) file',
    query: ReportQuery,
  },
  'GET /target-platforms': { tag: 'lookups', summary: 'Target platforms' },
  'GET /target-fields': { tag: 'lookups', summary: 'Target fields and their values' },
  'GET /cities': { tag: 'lookups', summary: 'Russian cities by name, in either script', query: CitiesQuery },
  'GET /project': {
    tag: 'content',
    summary: 'A project’s questionnaires and portraits (ETag: the version)',
    query: ContentPidQuery,
  },
  'POST /project': {
    tag: 'content',
    summary: 'Save the content (If-Match: the version replaced)',
    body: SaveProjectBody,
  },
  'POST /picture': {
    tag: 'content',
    summary: 'Upload pictures (jpeg, png, webp, gif; 5 MB each)',
    multipart: ['images'],
  },
  'GET /pictures/:file': { tag: 'content', summary: 'An uploaded picture' },
  'GET /project/price': {
    tag: 'content',
    summary: 'The price of a project for the counts of its content (not the calculator settings)',
    query: ProjectPriceQuery,
  },
  'POST /project/review-settings': {
    tag: 'content',
    summary: 'On moderation: block customParams and callbackUrl, question customParams',
    body: ReviewSettingsBody,
  },
  'GET /project/versions': {
    tag: 'content',
    summary: 'The kept versions of a project’s content: who, when, what changed (codes 001–013)',
    query: VersionsQuery,
  },
  'GET /project/version': {
    tag: 'content',
    summary: 'One kept version of a project’s content',
    query: VersionQuery,
  },
  'GET /survey/:token': { tag: 'survey', summary: 'What a survey link or SDK ticket opens (public)' },
  'POST /survey/:token/start': {
    tag: 'survey',
    summary: 'Start a respondent; answers the resume token',
    body: StartBody,
  },
  'GET /survey/session': {
    tag: 'survey',
    summary: 'The respondent’s survey and replies (x-respondent-token)',
  },
  'POST /survey/answer': { tag: 'survey', summary: 'Answer one page (x-respondent-token)', body: AnswerBody },
  'GET /survey/places': { tag: 'survey', summary: 'Cities or regions for a respondent', query: PlacesQuery },
  'GET /survey/:token/places': {
    tag: 'survey',
    summary: "Cities for a direct link's profile step (public)",
    query: PlacesQuery,
  },
  'POST /games/sdk/survey': {
    tag: 'games',
    summary: 'A one-time survey address for a player, or 204',
    body: SdkSurveyBody,
  },
  'GET /openapi.json': { tag: 'service', summary: 'This document' },
  'GET /docs': { tag: 'service', summary: 'This document as a readable page' },
  // Issue 24: players' records and a game's numbers
  'GET /games/player': { tag: 'games', summary: 'A game player’s record', query: PlayerQuery },
  'DELETE /games/player': {
    tag: 'games',
    summary: 'Erase a player’s record and unlink their respondents',
    body: PlayerBody,
  },
  'GET /games/stats': { tag: 'games', summary: 'A game’s numbers per day (UTC)', query: StatsQuery },
  // Block callbacks (issue 24, docs/api.md)
  'GET /project/callback-secret': {
    tag: 'callbacks',
    summary: 'The secret that signs the project’s block callbacks (made on first use)',
    query: PidQuery,
  },
  'POST /project/callback-secret': {
    tag: 'callbacks',
    summary: 'A new callback signing secret',
    body: SecretBody,
  },
  'GET /project/callbacks': {
    tag: 'callbacks',
    summary: 'The delivery log of the project’s block callbacks, newest first',
    query: CallbacksQuery,
  },
  'POST /project/callbacks/retry': {
    tag: 'callbacks',
    summary: 'Send a failed, given-up or refused delivery again',
    body: RetryBody,
  },
  'POST /project/callbacks/test': {
    tag: 'callbacks',
    summary: 'A test delivery to a block’s saved callbackUrl',
    body: TestCallBody,
  },
  'GET /project/stats/crosstab': {
    tag: 'projects',
    summary: 'A crosstab of a project’s answers with its tests: JSON, XLSX or CSV',
    query: CrosstabQuery,
  },
  // Respondents one by one (issue 31, docs/api.md)
  'GET /project/respondents': {
    tag: 'responses',
    summary: 'A page of a project’s respondents with their flags and exclusion, filtered and sorted',
    query: RespondentsQuery,
  },
  'GET /project/respondent': {
    tag: 'responses',
    summary: 'One respondent’s answers in the order asked, with the order shown and the time per page',
    query: RespondentQuery,
  },
  'GET /project/respondents/file': {
    tag: 'responses',
    summary: 'The filtered respondents list as a streamed XLSX or CSV',
    query: RespondentsFileQuery,
  },
  'POST /project/respondents/exclusion': {
    tag: 'responses',
    summary: 'Exclude (or restore) respondents by ids or by a filter; counters, quotas and the logs follow',
    body: ExclusionBody,
  },
  'DELETE /project/respondent': {
    tag: 'responses',
    summary: 'Erase one respondent’s answers and profile at their request (an anonymous row stays)',
    body: EraseBody,
  },
};
