import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  canChangeProjectSettings,
  canChangeProjectStatus,
  canCreateProjects,
  canDeleteProject,
  canWriteProject,
  CloneProjectBody,
  CreateProjectBody,
  IdQuery,
  isEditableStatus,
  PidQuery,
  PROJECT_NAME_MAX,
  ProjectsQuery,
  ProjectStatus,
  SetStatusBody,
  UpdateProjectBody,
  type ProjectStatusId,
} from '../../src/domain/projects';
import { canSetStatus, canSubmit } from '../../src/domain/projectStatus';
import { can } from '../../src/domain/permissions';
import { Role } from '../../src/domain/roles';
import type { User } from '../../src/domain/user';
import {
  canUseTemplate,
  TemplateQuery,
  TEMPLATES,
  templatesFor,
  type TemplateInfo,
} from '../../src/domain/templates';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import type { Db } from '../db';
import { audit } from '../http/audit';
import { requireUser } from '../http/context';
import { sessionRead } from '../http/session-read';
import { PAGE_COMPRESSION } from '../http/compression';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { parse } from '../http/validate';
import { contentProblems, copyContent } from '../repos/content';
import { refusedFor } from '../http/content-problems';
import { listProjects, loadProject, projectFor, setTargetPlatforms } from '../repos/projects';
import { refuseDemo } from '../repos/demo';

// Projects (spec section 7): the list, templates, create, rename and priority, delete, clone, status
// changes with the status machine, and the survey link. Every call loads the project through
// projectFor, so a project the caller may not see answers 404 whatever the call.

const statusName = (t: TranslationFunctions, s: number) => t.projects.status[String(s) as '1']();

/**
 * Refuses to send a questionnaire that is not complete: empty (40501), or with any problem the
 * editor's rules report (empty blocks or questions, missing texts, broken limits, redirects,
 * portraits), answering the first problem's code and path with every problem in `details`.
 */
async function assertReadyToSend(db: Db, p: { id: number; type: number }) {
  const problems = await contentProblems(db, p);
  if (problems.length > 0) throw refusedFor(problems);
}

function templateInfo(t: TranslationFunctions, id: keyof typeof TEMPLATES): TemplateInfo {
  return {
    ...TEMPLATES[id],
    name: t.projects.templates[id].name(),
    description: t.projects.templates[id].description(),
  };
}

/** The organization a new project belongs to: one's own; the one an Administrator names. */
async function organizationForNew(db: Db, user: User, requested: number | undefined): Promise<number> {
  if (user.role.id === Role.Administrator) {
    const id = requested ?? user.organization?.id;
    if (id === undefined)
      throw badRequest((t) => t.projects.errors.organizationRequired(), { field: 'organizationId' });
    const org = await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst();
    if (!org) throw badRequest((t) => t.projects.errors.organizationNotFound(), { field: 'organizationId' });
    return id;
  }
  if (!user.organization)
    throw conflict((t) => t.projects.errors.noOrganization(), { code: 'no-organization' });
  if (requested !== undefined && requested !== user.organization.id) throw forbidden();
  return user.organization.id;
}

/**
 * Moves a project from `from` to `to` only if nobody moved it in between; a lost race answers 409
 * rather than overwriting the other change.
 */
async function moveStatus(db: Db, pid: number, from: number, to: ProjectStatusId, now = Date.now()) {
  const res = await db
    .updateTable('projects')
    .set({ status: to, status_changed_at: now, updated_at: now })
    .where('id', '=', pid)
    .where('status', '=', from)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict();
}

export default async function projectRoutes(app: FastifyInstance) {
  const { db, config } = app;

  app.get('/projects', {
    compress: PAGE_COMPRESSION,
    ...sessionRead(async (req, reply, probe) => {
      const me = requireUser(req);
      if (me.role.id === Role.Issuer) throw forbidden();
      const q = parse(ProjectsQuery, req.query);
      const { items, total } = await listProjects(db, me, q, probe);
      reply.header('x-total-count', String(total));
      return items;
    }),
  });

  app.get('/project/templates', async (req) => {
    const me = requireUser(req);
    return templatesFor(me.role.id).map((tpl) => templateInfo(req.t, tpl.id));
  });

  app.get('/project/template', async (req) => {
    const me = requireUser(req);
    const { id } = parse(TemplateQuery, req.query);
    if (!canUseTemplate(me.role.id, id)) throw notFound();
    return templateInfo(req.t, id as keyof typeof TEMPLATES);
  });

  app.post('/projects', async (req, reply) => {
    const me = requireUser(req);
    if (!canCreateProjects(me.role.id)) throw forbidden();
    const body = parse(CreateProjectBody, req.body);
    if (!canUseTemplate(me.role.id, body.template))
      throw forbidden((t) => t.projects.errors.templateNotAllowed());
    // Priority is a project setting (set_priority): a Researcher creates with the default.
    if (body.priority !== 0 && !can(me.role.id, 'project-editor.change-project-settings')) throw forbidden();
    const organizationId = await organizationForNew(db, me, body.organizationId);
    const now = Date.now();
    const pid = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          name: body.name,
          search_name: body.name.toLowerCase(),
          priority: body.priority,
          organization_id: organizationId,
          template: body.template,
          type: TEMPLATES[body.template].type,
          status: ProjectStatus.Created,
          link_token: null,
          created_by: me.id,
          created_at: now,
          updated_at: now,
          status_changed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setTargetPlatforms(trx, row.id, body.targetPlatformIds);
      return row.id;
    });
    await audit(req, {
      chapter: 'projects',
      message: 'projects.log.created',
      params: { id: pid, name: body.name },
    });
    return reply.status(201).send(await loadProject(db, me, pid));
  });

  app.put('/project', async (req) => {
    const me = requireUser(req);
    const body = parse(UpdateProjectBody, req.body);
    const p = await projectFor(db, me, body.id, 'read');
    const renames = body.name !== undefined && body.name !== p.name;
    const moves = body.targetPlatformIds !== undefined;
    const reprioritizes = body.priority !== undefined && body.priority !== p.priority;
    // Name and platforms are content: a writer, in an editable status.
    if (renames || moves) await projectFor(db, me, body.id, 'edit');
    // Priority is the set_priority setting: its permission, its rule.
    if (reprioritizes) {
      if (!can(me.role.id, 'project-editor.change-project-settings')) throw forbidden();
      if (!canChangeProjectSettings(me, p))
        throw conflict((t) => t.projects.notEditable(), { code: 'not-editable' });
    }
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      if (renames || reprioritizes) {
        await trx
          .updateTable('projects')
          .set({
            ...(renames ? { name: body.name!, search_name: body.name!.toLowerCase() } : {}),
            ...(reprioritizes ? { priority: body.priority! } : {}),
            updated_at: now,
          })
          .where('id', '=', p.id)
          .execute();
      }
      if (moves) await setTargetPlatforms(trx, p.id, body.targetPlatformIds!);
    });
    if (renames)
      await audit(req, {
        chapter: 'projects',
        message: 'projects.log.renamed',
        params: { id: p.id, from: p.name, to: body.name! },
      });
    if (reprioritizes)
      await audit(req, {
        chapter: 'projects',
        message: 'projects.log.priorityChanged',
        params: { id: p.id, from: p.priority, to: body.priority! },
      });
    if (moves)
      await audit(req, {
        chapter: 'projects',
        message: 'projects.log.platformsChanged',
        params: { id: p.id },
      });
    return loadProject(db, me, p.id);
  });

  app.delete('/project', async (req) => {
    const me = requireUser(req);
    const { id } = parse(IdQuery, req.query);
    const p = await projectFor(db, me, id, 'read');
    if (!canWriteProject(me, p)) throw forbidden();
    if (!canDeleteProject(me, p))
      throw conflict((t) => t.projects.errors.notDeletable({ status: statusName(t, p.status) }));
    // Content, settings, platforms, respondents and counters go with the row (ON DELETE CASCADE), in
    // one statement. The counters' deltas have no foreign key (migration 024): deleted after the row,
    // so on PostgreSQL an exclusion that wrote some has committed by then (it holds the respondents'
    // rows the cascade deletes) and one that comes later finds no respondent to move.
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('projects').where('id', '=', p.id).execute();
      for (const table of ['report_count_deltas', 'report_city_count_deltas'] as const)
        await trx.deleteFrom(table).where('project_id', '=', p.id).execute();
    });
    await audit(req, {
      chapter: 'projects',
      message: 'projects.log.deleted',
      params: { id: p.id, name: p.name },
    });
    return { id: p.id };
  });

  app.post('/project/clone', async (req, reply) => {
    const me = requireUser(req);
    // The role first: a role that may never clone hears 403, whatever it sent.
    if (!can(me.role.id, 'project.clone')) throw forbidden();
    const body = parse(CloneProjectBody, req.body);
    const p = await projectFor(db, me, body.id, 'read');
    const name = (body.name ?? req.t.projects.clone.copyName({ name: p.name })).slice(0, PROJECT_NAME_MAX);
    const now = Date.now();
    const pid = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          name,
          search_name: name.toLowerCase(),
          priority: p.priority,
          organization_id: p.organization_id,
          template: p.template,
          type: p.type,
          status: ProjectStatus.Created,
          link_token: null,
          created_by: me.id,
          created_at: now,
          updated_at: now,
          status_changed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const settings = await trx
        .selectFrom('project_settings')
        .select(['key', 'value'])
        .where('project_id', '=', p.id)
        .execute();
      if (settings.length > 0)
        await trx
          .insertInto('project_settings')
          .values(settings.map((s) => ({ ...s, project_id: row.id })))
          .execute();
      const platforms = await trx
        .selectFrom('project_target_platforms')
        .select('platform_id')
        .where('project_id', '=', p.id)
        .execute();
      await setTargetPlatforms(
        trx,
        row.id,
        platforms.map((x) => x.platform_id),
      );
      await copyContent(trx, p.id, row.id, me.id);
      return row.id;
    });
    await audit(req, {
      chapter: 'projects',
      message: 'projects.log.cloned',
      params: { from: p.id, id: pid, name },
    });
    // The copy is a draft of the owner's organization: a moderator who made it sees it once it is sent,
    // so answer with the row itself rather than through the reader's visibility.
    const copy = await db
      .selectFrom('projects')
      .select(['id', 'name', 'status', 'organization_id'])
      .where('id', '=', pid)
      .executeTakeFirstOrThrow();
    return reply
      .status(201)
      .send({ id: copy.id, name: copy.name, status: copy.status, organizationId: copy.organization_id });
  });

  app.post('/project/status', async (req) => {
    const me = requireUser(req);
    const body = parse(SetStatusBody, req.body);
    const p = await projectFor(db, me, body.pid, 'read');
    const from = p.status as ProjectStatusId;
    const to = body.status;
    if (canChangeProjectStatus(me, p)) {
      if (from === to) return loadProject(db, me, p.id);
      if (!canSetStatus(from, to))
        throw conflict(
          (t) => t.projects.errors.statusRefused({ from: statusName(t, from), to: statusName(t, to) }),
          { code: 'status-refused' },
        );
    } else if (to === ProjectStatus.OnModeration && canWriteProject(me, p)) {
      // "Send for moderation": the one status change a project's own writers make.
      refuseDemo(me, 'submit');
      if (!canSubmit(from))
        throw conflict((t) => t.projects.errors.cannotSubmit({ status: statusName(t, from) }), {
          code: 'status-refused',
        });
    } else {
      throw forbidden();
    }
    // Leaving an editable status for moderation needs something to moderate.
    if (isEditableStatus(from) && !isEditableStatus(to)) await assertReadyToSend(db, p);
    await moveStatus(db, p.id, from, to);
    await audit(req, {
      chapter: 'projects',
      message:
        isEditableStatus(from) && to === ProjectStatus.OnModeration && !canChangeProjectStatus(me, p)
          ? 'projects.log.submitted'
          : 'projects.log.statusChanged',
      params: { id: p.id, from, to },
    });
    return loadProject(db, me, p.id);
  });

  app.get('/project/link', async (req) => {
    const me = requireUser(req);
    const { pid } = parse(PidQuery, req.query);
    refuseDemo(me, 'link');
    let p = await projectFor(db, me, pid, 'read');
    if (isEditableStatus(p.status)) {
      // Taking the link of a project still being written sends it for moderation (spec section 4).
      if (!canWriteProject(me, p))
        throw conflict((t) => t.projects.errors.linkNotReady(), { code: 'link-not-ready' });
      if (!canSubmit(p.status as ProjectStatusId))
        throw conflict((t) => t.projects.errors.cannotSubmit({ status: statusName(t, p.status) }), {
          code: 'status-refused',
        });
      await assertReadyToSend(db, p);
      await moveStatus(db, p.id, p.status, ProjectStatus.OnModeration);
      await audit(req, { chapter: 'projects', message: 'projects.log.submitted', params: { id: p.id } });
    }
    if (!p.link_token) {
      // 128 random bits; set only where still empty, so two concurrent calls agree on one token.
      const token = crypto.randomBytes(16).toString('base64url');
      await db
        .updateTable('projects')
        .set({ link_token: token })
        .where('id', '=', p.id)
        .where('link_token', 'is', null)
        .execute();
      await audit(req, { chapter: 'projects', message: 'projects.log.linkIssued', params: { id: p.id } });
    }
    p = (await db.selectFrom('projects').selectAll().where('id', '=', p.id).executeTakeFirst())!;
    return { pid: p.id, link: `${config.publicUrl}/s/${p.link_token}`, status: p.status };
  });
}
