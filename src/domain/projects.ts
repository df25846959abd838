import * as v from 'valibot';
import { INT32_MAX, int32Max, objectMessage, queryDigits, queryId, queryInt } from './validation';
import { Role } from './roles';
import { can } from './permissions';
import type { User } from './user';
import { TARGET_PLATFORM_IDS } from './lookups';

// Projects (spec sections 3 and 4): statuses, types and templates. The status machine that says
// which transitions are allowed lives in projectStatus.ts.

export const ProjectStatus = {
  Created: 1,
  OnModeration: 2,
  OnRotation: 3,
  Rejected: 4,
  Paused: 5,
  Stopped: 6,
  ProjectFinished: 7,
  OnModerationVK: 8,
  CreatingReport: 9,
  SurveyFinished: 10,
  OnModerationAuto: 11,
} as const;
export type ProjectStatusId = (typeof ProjectStatus)[keyof typeof ProjectStatus];

/** Content may be edited only in these statuses (DESIGN.md 5). */
export const EDITABLE_STATUSES: readonly ProjectStatusId[] = [ProjectStatus.Created, ProjectStatus.Rejected];

export const ProjectType = { Default: 1, Target: 2 } as const;
export type ProjectTypeId = (typeof ProjectType)[keyof typeof ProjectType];

export const PROJECT_TEMPLATES = ['default', 'target', 'directLink', 'directLinkAdmin'] as const;
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

// ---------------------------------------------------------------------------------------------
// Who may do what with a project. The server enforces these on every call (server/repos/projects.ts
// delegates here); the UI uses the same functions to decide which actions to show.

type Actor = Pick<User, 'role' | 'organization'>;
type ProjectLike = { organization_id: number; status: number } | { organizationId: number; status: number };

const orgOf = (p: ProjectLike) => ('organization_id' in p ? p.organization_id : p.organizationId);

/** Roles that write questionnaires; moderators only look at them. */
export const WRITER_ROLES: readonly number[] = [Role.Administrator, Role.Researcher, Role.DemoResearcher];
/** Roles that look after projects once they are sent, in any status. */
export const OPERATOR_ROLES: readonly number[] = [Role.Administrator, Role.Moderator, Role.ModeratorVK];
/** Statuses in which a researcher may delete their own project: not while moderators or respondents use it. */
export const OWNER_DELETABLE_STATUSES: readonly ProjectStatusId[] = [
  ProjectStatus.Created,
  ProjectStatus.Rejected,
  ProjectStatus.Stopped,
  ProjectStatus.ProjectFinished,
];
/** Statuses whose report can be opened: the survey has run (or is running). */
export const REPORT_STATUSES: readonly ProjectStatusId[] = [
  ProjectStatus.OnRotation,
  ProjectStatus.Paused,
  ProjectStatus.Stopped,
  ProjectStatus.CreatingReport,
  ProjectStatus.SurveyFinished,
  ProjectStatus.ProjectFinished,
];

export function isEditableStatus(status: number): boolean {
  return (EDITABLE_STATUSES as readonly number[]).includes(status);
}

/**
 * Researchers and demo researchers: their organization's projects. Moderators (and Moderator VK):
 * projects that have been sent to moderation, and everything after. Administrators: all. Issuers: none.
 */
export function canReadProject(user: Actor, p: ProjectLike): boolean {
  switch (user.role.id) {
    case Role.Administrator:
      return true;
    case Role.Researcher:
    case Role.DemoResearcher:
      return user.organization?.id === orgOf(p);
    case Role.Moderator:
    case Role.ModeratorVK:
      return p.status !== ProjectStatus.Created;
    default:
      return false;
  }
}

/** May change the project's content and name (when its status is editable, see isEditableStatus). */
export function canWriteProject(user: Actor, p: ProjectLike): boolean {
  return canReadProject(user, p) && WRITER_ROLES.includes(user.role.id);
}

/** May change content right now: a writer, and the project has not been sent. */
export function canEditProject(user: Actor, p: ProjectLike): boolean {
  return canWriteProject(user, p) && isEditableStatus(p.status);
}

export function canDeleteProject(user: Actor, p: ProjectLike): boolean {
  if (!canWriteProject(user, p)) return false;
  return (
    user.role.id === Role.Administrator || (OWNER_DELETABLE_STATUSES as readonly number[]).includes(p.status)
  );
}

export function canCloneProject(user: Actor, p: ProjectLike): boolean {
  return can(user.role.id, 'project.clone') && canReadProject(user, p);
}

/**
 * Project settings (priority, online filling of the report and statistics): the permission of spec
 * section 6, on a project the user sees. Administrators and moderators run projects in every status;
 * a demo researcher changes them only while the project is still editable.
 */
export function canChangeProjectSettings(user: Actor, p: ProjectLike): boolean {
  if (!can(user.role.id, 'project-editor.change-project-settings') || !canReadProject(user, p)) return false;
  return OPERATOR_ROLES.includes(user.role.id) || canEditProject(user, p);
}

export function canChangeProjectStatus(user: Actor, p: ProjectLike): boolean {
  return can(user.role.id, 'project.change-status') && canReadProject(user, p);
}

/** Roles that may create projects at all (which templates: src/domain/templates.ts). */
export function canCreateProjects(roleId: number): boolean {
  return WRITER_ROLES.includes(roleId);
}

// ---------------------------------------------------------------------------------------------
// Payloads and the list query (spec section 7, Projects). Messages are keys of the `validation` group.

export const PROJECT_NAME_MIN = 3;
export const PROJECT_NAME_MAX = 200;
export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 100;
export const PROJECT_PAGE_SIZE_MAX = 100;

export const projectName = v.pipe(
  v.string('type'),
  v.trim(),
  v.nonEmpty('required'),
  v.minLength(PROJECT_NAME_MIN, 'minThree'),
  v.maxLength(PROJECT_NAME_MAX, 'tooLong'),
);
export const priority = v.pipe(
  v.number('integer'),
  v.integer('integer'),
  v.minValue(PRIORITY_MIN, 'positiveInteger'),
  v.maxValue(PRIORITY_MAX, 'tooBig'),
);
/**
 * A body field that must be present: a missing key says "required" (valibot would otherwise report
 * it with the object's own message, "unknown field").
 */
export const required = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(
    v.optional(v.unknown(), null),
    v.check((x) => x !== undefined && x !== null, 'required'),
    schema,
  );

const bodyId = v.pipe(v.number('type'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max);
const targetPlatformIds = v.pipe(
  v.array(
    v.pipe(
      bodyId,
      v.check((id) => TARGET_PLATFORM_IDS.includes(id), 'invalid'),
    ),
    'type',
  ),
  v.transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
);

export const CreateProjectBody = v.strictObject(
  {
    name: required(projectName),
    template: required(v.picklist(PROJECT_TEMPLATES, 'invalid')),
    priority: v.optional(priority, 0),
    /** Only an Administrator names the organization; everyone else creates in their own. */
    organizationId: v.optional(bodyId),
    targetPlatformIds: v.optional(targetPlatformIds, []),
  },
  'unknownField',
);
export type CreateProjectBody = v.InferOutput<typeof CreateProjectBody>;

export const UpdateProjectBody = v.pipe(
  v.strictObject(
    {
      id: required(bodyId),
      name: v.optional(projectName),
      priority: v.optional(priority),
      targetPlatformIds: v.optional(targetPlatformIds),
    },
    'unknownField',
  ),
  v.check(
    (b) => b.name !== undefined || b.priority !== undefined || b.targetPlatformIds !== undefined,
    'required',
  ),
);
export type UpdateProjectBody = v.InferOutput<typeof UpdateProjectBody>;

export const CloneProjectBody = v.strictObject(
  { id: required(bodyId), name: v.optional(projectName) },
  'unknownField',
);
export type CloneProjectBody = v.InferOutput<typeof CloneProjectBody>;

export const SetStatusBody = v.strictObject(
  {
    pid: required(bodyId),
    status: required(
      v.pipe(
        v.number('type'),
        v.check((s) => Object.values(ProjectStatus).includes(s as ProjectStatusId), 'invalid'),
        v.transform((s) => s as ProjectStatusId),
      ),
    ),
  },
  'unknownField',
);
export type SetStatusBody = v.InferOutput<typeof SetStatusBody>;

/** DELETE /project's query: strict, so a mistyped parameter is refused before anything is deleted. */
export const IdQuery = v.strictObject({ id: queryId }, objectMessage);
export const PidQuery = v.object({ pid: queryId });

export const PROJECT_SORTS = [
  'id',
  'name',
  'priority',
  'organization',
  'template',
  'createdAt',
  'status',
  'type',
] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

/** A query value that may come once (a string) or repeated (an array). */
function many<T extends v.GenericSchema<string, unknown>>(item: T) {
  return v.pipe(
    v.union([v.string(), v.array(v.string())], 'type'),
    v.transform((x) => (Array.isArray(x) ? x : [x]).filter((s) => s !== '')),
    v.array(item),
  );
}

const pageInt = (min: number) => queryInt(min, INT32_MAX);

export const ProjectsQuery = v.object({
  page: v.optional(pageInt(1), '1'),
  // A bigger page than allowed is served at the maximum rather than refused.
  pageSize: v.pipe(
    v.optional(pageInt(1), '20'),
    v.transform((n) => Math.min(n, PROJECT_PAGE_SIZE_MAX)),
  ),
  search: v.optional(v.pipe(v.string('type'), v.trim(), v.maxLength(200, 'tooLong')), ''),
  sort: v.optional(v.picklist(PROJECT_SORTS, 'invalid'), 'id'),
  order: v.optional(v.picklist(['asc', 'desc'] as const, 'invalid'), 'desc'),
  status: v.optional(
    many(
      v.pipe(
        v.string(),
        queryDigits,
        v.toNumber('integer'),
        v.check((s) => Object.values(ProjectStatus).includes(s as ProjectStatusId), 'invalid'),
      ),
    ),
    [],
  ),
  template: v.optional(many(v.picklist(PROJECT_TEMPLATES, 'invalid')), []),
  /** The target-platform filter; the spec drops it when empty, so an empty value means "any". */
  tpid: v.optional(v.union([v.literal(''), pageInt(1)], 'integer'), ''),
});
export type ProjectsQuery = v.InferOutput<typeof ProjectsQuery>;

/** A project as every call returns it (spec section 3: id, name, priority, organization, template, creation date, status, type). */
export interface Project {
  id: number;
  name: string;
  priority: number;
  organization: { id: number; name: string };
  template: ProjectTemplate;
  type: ProjectTypeId;
  status: ProjectStatusId;
  /** Unix milliseconds. */
  createdAt: number;
  updatedAt: number;
  targetPlatformIds: number[];
  /** Whether the caller may change the content now (a writer, and the status is editable). */
  editable: boolean;
}
