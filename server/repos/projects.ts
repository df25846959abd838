import { sql } from 'kysely';
import type { Db } from '../db';
import { compiledOnce, dialectOf, listTotal, pageBound, runCompiled } from '../db';
import type { User } from '../../src/domain/user';
import { Role } from '../../src/domain/roles';
import {
  canEditProject,
  canReadProject as canRead,
  canWriteProject as canWrite,
  isEditableStatus,
  ProjectStatus,
  type Project,
  type ProjectsQuery,
  type ProjectStatusId,
  type ProjectTemplate,
  type ProjectTypeId,
} from '../../src/domain/projects';
import { DEFAULT_SETTINGS, type ProjectSettingsValues } from '../../src/domain/projectSettings';
import { conflict, forbidden, notFound } from '../http/errors';
import { EpochProbe } from '../http/session-read';

// Who may see and change which project (DESIGN.md 5), checked on every call that names a project,
// and the queries that read projects in the shape every call returns. The rules themselves live in
// src/domain/projects.ts so that the UI shows exactly the actions the server accepts.
// Researchers and demo researchers: their organization's projects. Moderators (and Moderator VK):
// projects that have been sent to moderation, and everything after. Administrators: all. Issuers:
// none.

export type ProjectRow = Awaited<ReturnType<typeof findProject>>;

export async function findProject(db: Db, pid: number) {
  return db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirst();
}

export function canReadProject(user: User, p: { organization_id: number; status: number }): boolean {
  return canRead(user, p);
}

/** Roles that may change a project's content and name (in an editable status). */
export function canWriteProject(user: User, p: { organization_id: number; status: number }): boolean {
  return canWrite(user, p);
}

export function isEditable(p: { status: number }): boolean {
  return isEditableStatus(p.status);
}

/**
 * Loads a project the user may read (mode 'read') or change now (mode 'edit'). A project the user
 * may not see answers 404, as if it did not exist; one they see but may not change answers 403;
 * one that is not in an editable status answers 409.
 */
export async function projectFor(db: Db, user: User, pid: number, mode: 'read' | 'edit') {
  const p = await findProject(db, pid);
  if (!p || !canReadProject(user, p)) throw notFound();
  if (mode === 'edit') {
    if (!canWriteProject(user, p)) throw forbidden();
    if (!isEditable(p)) throw conflict((t) => t.projects.notEditable(), { code: 'not-editable' });
  }
  return p;
}

/**
 * projectFor's read, with the version of the project's content (0 without one) in the same
 * statement: GET /project and the report need both, and on PostgreSQL each statement is a round trip.
 */
export async function projectWithVersion(db: Db, user: User, pid: number) {
  const row = await db
    .selectFrom('projects as p')
    .leftJoin('project_contents as c', 'c.project_id', 'p.id')
    .selectAll('p')
    .select(['c.version as content_version', 'c.updated_at as content_updated_at'])
    .where('p.id', '=', pid)
    .executeTakeFirst();
  if (!row || !canReadProject(user, row)) throw notFound();
  const { content_version, content_updated_at, ...project } = row;
  return {
    project,
    content:
      content_version === null ? null : { version: content_version, updatedAt: Number(content_updated_at) },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading projects as the API returns them.

function projectsQuery(db: Db) {
  return db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select([
      'p.id',
      'p.name',
      'p.priority',
      'p.organization_id',
      'o.name as organization_name',
      'p.template',
      'p.type',
      'p.status',
      'p.created_at',
      'p.updated_at',
    ]);
}
type ListRow = Awaited<ReturnType<ReturnType<typeof projectsQuery>['executeTakeFirstOrThrow']>>;

async function platformsOf(db: Db, pids: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>(pids.map((id) => [id, []]));
  if (pids.length === 0) return map;
  const rows = await db
    .selectFrom('project_target_platforms')
    .select(['project_id', 'platform_id'])
    .where('project_id', 'in', pids)
    .orderBy('platform_id')
    .execute();
  for (const r of rows) map.get(r.project_id)?.push(r.platform_id);
  return map;
}

function toProject(user: User, r: ListRow, platforms: number[]): Project {
  const p = { organization_id: r.organization_id, status: r.status };
  return {
    id: r.id,
    name: r.name,
    priority: r.priority,
    organization: { id: r.organization_id, name: r.organization_name },
    template: r.template as ProjectTemplate,
    type: r.type as ProjectTypeId,
    status: r.status as ProjectStatusId,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    targetPlatformIds: platforms,
    editable: canEditProject(user, p),
  };
}

/** One project as the API returns it, or 404 when the user may not see it. */
export async function loadProject(db: Db, user: User, pid: number): Promise<Project> {
  const row = await projectsQuery(db).where('p.id', '=', pid).executeTakeFirst();
  if (!row || !canReadProject(user, row)) throw notFound();
  return toProject(user, row, (await platformsOf(db, [row.id])).get(row.id) ?? []);
}

const SORT_COLUMNS = {
  id: 'p.id',
  name: 'p.search_name',
  priority: 'p.priority',
  organization: 'o.name',
  template: 'p.template',
  createdAt: 'p.created_at',
  status: 'p.status',
  type: 'p.type',
} as const;

/** Escapes LIKE's wildcards so a search for "50%" finds that text. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Which projects a role sees: null for none. Everything the list's statements read of the caller. */
function projectScope(user: User): { role: number; organizationId: number } | null {
  switch (user.role.id) {
    case Role.Administrator:
    case Role.Moderator:
    case Role.ModeratorVK:
      return { role: user.role.id, organizationId: 0 };
    case Role.Researcher:
    case Role.DemoResearcher:
      return { role: user.role.id, organizationId: user.organization?.id ?? -1 };
    default:
      return null;
  }
}

/** The statements of a page of projects, compiled; they read only their arguments (compiledOnce). */
function projectStatements(
  db: Db,
  scope: { role: number; organizationId: number },
  q: ProjectsQuery,
  probe: EpochProbe,
) {
  // The filters touch the projects table only; every project has its organization (a foreign key,
  // not null), so the count needs no join and the page joins it for the organization's name.
  let base = db.selectFrom('projects as p');
  if (scope.role === Role.Researcher || scope.role === Role.DemoResearcher)
    base = base.where('p.organization_id', '=', scope.organizationId);
  else if (scope.role === Role.Moderator || scope.role === Role.ModeratorVK)
    base = base.where('p.status', '!=', ProjectStatus.Created);
  if (q.status.length > 2) {
    // Several statuses (the reports page asks for six) match most rows: scanning the sort column's
    // index and skipping the rest beats collecting them through the status index and sorting; the
    // unary plus keeps SQLite's planner (no statistics) off the status index.
    base = base.where(sql<number>`+p.status`, 'in', q.status);
  } else if (q.status.length > 0) base = base.where('p.status', 'in', q.status);
  if (q.template.length > 0) base = base.where('p.template', 'in', q.template);
  if (q.tpid !== '') {
    const tpid = q.tpid;
    base = base.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('project_target_platforms as tp')
          .select('tp.project_id')
          .whereRef('tp.project_id', '=', 'p.id')
          .where('tp.platform_id', '=', tpid),
      ),
    );
  }
  if (q.search) {
    const pattern = likePattern(q.search);
    const asId = /^\d{1,9}$/.test(q.search) ? Number(q.search) : null;
    base = base.where((eb) =>
      eb.or([
        eb(sql`p.search_name`, 'like', sql`${pattern} escape '\\'`),
        ...(asId !== null ? [eb('p.id', '=', asId)] : []),
      ]),
    );
  }

  const counted = base.select((eb) => eb.fn.countAll<number>().as('n'));
  const column = SORT_COLUMNS[q.sort];
  // On PostgreSQL one statement for the page, its full count (an uncorrelated subquery: an InitPlan,
  // run once) and each row's target platforms: each statement is a round trip and a backend's
  // wake-up, which was most of a list call's time (docs/decisions/reads.md). SQLite plans the count
  // as a subquery far worse than alone (an automatic index built on every call: 10 ms against
  // 0.4 ms at 10 000 rows), and a statement costs it no round trip: it counts alone.
  const onPostgres = dialectOf(db) === 'postgres';
  const platformIds = onPostgres
    ? sql<string | null>`(select string_agg(tp.platform_id::text, ',' order by tp.platform_id)
          from project_target_platforms tp where tp.project_id = p.id)`
    : sql<string | null>`(select group_concat(tp.platform_id, ',' order by tp.platform_id)
          from project_target_platforms tp where tp.project_id = p.id)`;
  const page = probe
    .on(base.innerJoin('organizations as o', 'o.id', 'p.organization_id'))
    .select([
      'p.id',
      'p.name',
      'p.priority',
      'p.organization_id',
      'o.name as organization_name',
      'p.template',
      'p.type',
      'p.status',
      'p.created_at',
      'p.updated_at',
    ])
    .select(() => [
      onPostgres ? counted.as('total') : sql<number>`null`.as('total'),
      platformIds.as('platform_ids'),
    ])
    .orderBy(column, q.order)
    // The id breaks ties, so paging never shows a row twice or skips one.
    .orderBy('p.id', q.order)
    .limit(pageBound(q.pageSize))
    .offset(pageBound((q.page - 1) * q.pageSize));
  return { onPostgres, page: page.compile(), count: counted.compile() };
}

/** The page of projects the user may see, filtered and sorted on the server, with the full count. */
export async function listProjects(
  db: Db,
  user: User,
  q: ProjectsQuery,
  probe = EpochProbe.off,
): Promise<{ items: Project[]; total: number }> {
  const scope = projectScope(user);
  if (!scope) return { items: [], total: 0 };
  const { onPostgres, page, count } = compiledOnce(
    db,
    JSON.stringify(['projects', scope, q, probe.active]),
    () => projectStatements(db, scope, q, probe),
  );
  const rows = await runCompiled(db, page);
  probe.saw(rows);
  const total = await listTotal(onPostgres, rows, q.page, async () => (await runCompiled(db, count))[0].n);
  const platformsOfRow = (r: { platform_ids: string | null }) =>
    r.platform_ids ? r.platform_ids.split(',').map(Number) : [];
  return { items: rows.map((r) => toProject(user, r, platformsOfRow(r))), total };
}

// ---------------------------------------------------------------------------------------------
// Target platforms and settings, written inside the caller's transaction.

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'deleteFrom' | 'updateTable'>;

export async function setTargetPlatforms(db: Executor, pid: number, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('project_target_platforms').where('project_id', '=', pid).execute();
  if (ids.length > 0) {
    await db
      .insertInto('project_target_platforms')
      .values(ids.map((platform_id) => ({ project_id: pid, platform_id })))
      .execute();
  }
}

/** Every setting of a project: the stored ones over the defaults; set_priority is the priority column. */
export async function readSettings(
  db: Executor,
  p: { id: number; priority: number },
): Promise<ProjectSettingsValues> {
  const rows = await db
    .selectFrom('project_settings')
    .select(['key', 'value'])
    .where('project_id', '=', p.id)
    .execute();
  const values: ProjectSettingsValues = { ...DEFAULT_SETTINGS, set_priority: p.priority };
  for (const r of rows) {
    if (r.key === 'set_report_fill_online' || r.key === 'set_stat_fill_online')
      values[r.key] = JSON.parse(r.value) === true;
    if (r.key === 'set_speeder_percent' && Number.isInteger(JSON.parse(r.value)))
      values.set_speeder_percent = JSON.parse(r.value) as number;
  }
  return values;
}

export async function writeSetting(db: Executor, pid: number, key: string, value: unknown): Promise<void> {
  await db
    .insertInto('project_settings')
    .values({ project_id: pid, key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}
