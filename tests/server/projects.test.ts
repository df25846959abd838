import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { createProject, fillQuestionnaire, historyKeys, setStatus } from './projects.helpers';
import { Role, type RoleId } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';

// The projects calls on the real server (SQLite, or PostgreSQL with TEST_DATABASE_URL): who may call
// what, which projects each role sees, object-level checks across organizations, validation and
// what ends up in the database.

describe('projects API', () => {
  let server: TestServer;
  let orgA: number;
  let orgB: number;
  let admin: Session;
  let researcherA: Session;
  let researcherA2: Session;
  let demoA: Session;
  let researcherB: Session;
  let moderator: Session;
  let moderatorVK: Session;
  let issuer: Session;

  beforeAll(async () => {
    server = await startServer();
    orgA = await server.createOrganization('Альфа исследования');
    orgB = await server.createOrganization('Beta Research');
    admin = await server.as(Role.Administrator, { organizationId: null });
    researcherA = await server.as(Role.Researcher, { organizationId: orgA });
    researcherA2 = await server.as(Role.Researcher, { organizationId: orgA });
    demoA = await server.as(Role.DemoResearcher, { organizationId: orgA });
    researcherB = await server.as(Role.Researcher, { organizationId: orgB });
    moderator = await server.as(Role.Moderator);
    moderatorVK = await server.as(Role.ModeratorVK);
    issuer = await server.as(Role.Issuer);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('creating from templates', () => {
    it('lets researchers use default, target and directLink, with the type each template fixes', async () => {
      const list = await server.call('GET', '/project/templates', { session: researcherA });
      expect(list.status).toBe(200);
      expect(list.body.map((t: { id: string }) => t.id)).toEqual(['default', 'target', 'directLink']);
      expect(list.body[2]).toMatchObject({ name: 'Survey your own audience', type: 1, directLink: true });
      for (const [template, type] of [
        ['default', 1],
        ['target', 2],
        ['directLink', 1],
      ] as const) {
        const p = await createProject(server, researcherA, { name: `From ${template}`, template });
        expect(p).toMatchObject({
          template,
          type,
          status: ProjectStatus.Created,
          organization: { id: orgA },
          editable: true,
        });
      }
    });

    it('offers directLinkAdmin to the Administrator only', async () => {
      const adminList = await server.call('GET', '/project/templates', { session: admin });
      expect(adminList.body.map((t: { id: string }) => t.id)).toEqual([
        'default',
        'target',
        'directLink',
        'directLinkAdmin',
      ]);
      expect(
        (await server.call('GET', '/project/template?id=directLinkAdmin', { session: admin })).status,
      ).toBe(200);
      expect(
        (await server.call('GET', '/project/template?id=directLinkAdmin', { session: researcherA })).status,
      ).toBe(404);
      expect(
        (await server.call('GET', '/project/template?id=target', { session: researcherA })).body,
      ).toMatchObject({ id: 'target', type: 2, needsPortraits: true });
      const refused = await server.call('POST', '/projects', {
        session: researcherA,
        body: { name: 'Sneaky', template: 'directLinkAdmin' },
      });
      expect(refused.status).toBe(403);
    });

    it('gives roles that cannot create no templates, and refuses their POST /projects', async () => {
      for (const s of [moderator, moderatorVK, issuer]) {
        expect((await server.call('GET', '/project/templates', { session: s })).body).toEqual([]);
        expect(
          (
            await server.call('POST', '/projects', {
              session: s,
              body: { name: 'Nope', template: 'default' },
            })
          ).status,
        ).toBe(403);
      }
    });

    it('makes the Administrator name an existing organization when they have none', async () => {
      const before = await server.app.db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const missing = await server.call('POST', '/projects', {
        session: admin,
        body: { name: 'Admin project', template: 'directLinkAdmin' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        field: 'organizationId',
        message: 'Choose the project’s organization',
      });
      const unknown = await server.call('POST', '/projects', {
        session: admin,
        body: { name: 'Admin project', template: 'default', organizationId: 999999 },
      });
      expect(unknown.status).toBe(400);
      const after = await server.app.db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      const ok = await createProject(server, admin, {
        name: 'Admin project',
        template: 'directLinkAdmin',
        organizationId: orgB,
      });
      expect(ok.organization.id).toBe(orgB);
    });

    it('refuses bad payloads with a translated 400 naming the field, writing nothing', async () => {
      const cases: [unknown, string, string][] = [
        [{ template: 'default' }, 'name', 'name: This field is required'],
        [{ name: 'ab', template: 'default' }, 'name', 'name: Minimum 3 symbols.'],
        [{ name: 'Fine name', template: 'weird' }, 'template', 'template: Invalid value'],
        [
          { name: 'Fine name', template: 'default', targetPlatformIds: [999] },
          'targetPlatformIds.0',
          'targetPlatformIds[0]: Invalid value',
        ],
        [{ name: 'Fine name', template: 'default', extra: 1 }, 'extra', 'extra: Unknown field'],
      ];
      for (const [body, field, message] of cases) {
        const res = await server.call('POST', '/projects', { session: researcherA, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.field).toBe(field);
        expect(res.body.message).toBe(message);
      }
      const ru = await server.call('POST', '/projects', {
        session: researcherA,
        body: { template: 'default' },
        locale: 'ru',
      });
      expect(ru.body.message).toBe('name: Это поле обязательно');
      const row = await server.app.db
        .selectFrom('projects')
        .select('id')
        .where('name', '=', 'Fine name')
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('keeps a Researcher at the default priority (a project setting), while a demo researcher may set it', async () => {
      expect(
        (
          await server.call('POST', '/projects', {
            session: researcherA,
            body: { name: 'Urgent', template: 'default', priority: 50 },
          })
        ).status,
      ).toBe(403);
      const p = await createProject(server, demoA, { name: 'Demo urgent', priority: 50 });
      expect(p).toMatchObject({ priority: 50 });
    });

    it('writes a log entry for each creation', async () => {
      await createProject(server, researcherA, { name: 'Logged one' });
      const rows = await server.app.db
        .selectFrom('history')
        .selectAll()
        .where('message_key', '=', 'projects.log.created')
        .execute();
      expect(
        rows.some(
          (r) => JSON.parse(r.message_params).name === 'Logged one' && r.email === researcherA.user.email,
        ),
      ).toBe(true);
    });
  });

  describe('the list', () => {
    let listServer: TestServer;
    let org1: number;
    let org2: number;
    let r1: Session;
    let adminL: Session;
    let mod: Session;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      listServer = await startServer();
      org1 = await listServer.createOrganization('Org One');
      org2 = await listServer.createOrganization('Org Two');
      r1 = await listServer.as(Role.Researcher, { organizationId: org1 });
      const r2 = await listServer.as(Role.Researcher, { organizationId: org2 });
      adminL = await listServer.as(Role.Administrator, { organizationId: null });
      mod = await listServer.as(Role.Moderator);
      const specs: [Session, string, 'default' | 'target' | 'directLink', number[]][] = [
        [r1, 'Опрос игроков ВКонтакте', 'default', [1]],
        [r1, 'Таргет на студентов', 'target', [1, 4]],
        [r1, 'Своя аудитория 50%', 'directLink', []],
        [r2, 'Чужой опрос', 'default', [4]],
        [r2, 'Another one', 'target', []],
      ];
      for (const [s, name, template, targetPlatformIds] of specs) {
        ids[name] = (await createProject(listServer, s, { name, template, targetPlatformIds })).id;
      }
      for (let i = 0; i < 25; i++)
        await createProject(listServer, r1, { name: `Bulk ${String(i).padStart(2, '0')}` });
      await setStatus(listServer, ids['Таргет на студентов'], ProjectStatus.OnModeration);
      await setStatus(listServer, ids['Чужой опрос'], ProjectStatus.OnRotation);
    });
    afterAll(async () => {
      await listServer?.close();
    });

    const list = (session: Session, query = '') => listServer.call('GET', `/projects${query}`, { session });

    it('shows researchers their organization only, moderators what was sent, the Administrator all', async () => {
      const own = await list(r1, '?pageSize=100');
      expect(own.status).toBe(200);
      expect(Number(own.headers.get('x-total-count'))).toBe(28);
      expect(own.body.every((p: { organization: { id: number } }) => p.organization.id === org1)).toBe(true);

      const moderated = await list(mod, '?pageSize=100');
      expect(moderated.body.map((p: { id: number }) => p.id).sort()).toEqual(
        [ids['Таргет на студентов'], ids['Чужой опрос']].sort(),
      );

      const all = await list(adminL, '?pageSize=1');
      expect(Number(all.headers.get('x-total-count'))).toBe(30);
      expect(all.body).toHaveLength(1);
    });

    it('refuses the Issuer', async () => {
      const issuerS = await listServer.as(Role.Issuer);
      expect((await list(issuerS)).status).toBe(403);
    });

    it('pages on the server: 1-based pages, the full count in X-Total-Count, no row twice', async () => {
      const seen = new Set<number>();
      for (let page = 1; page <= 3; page++) {
        const res = await list(r1, `?page=${page}&pageSize=10&sort=name&order=asc`);
        expect(Number(res.headers.get('x-total-count'))).toBe(28);
        for (const p of res.body) seen.add(p.id);
        expect(res.body).toHaveLength(page < 3 ? 10 : 8);
      }
      expect(seen.size).toBe(28);
      const capped = await list(r1, '?pageSize=500');
      expect(capped.body).toHaveLength(28);
      expect((await list(r1, '?page=0')).status).toBe(400);
      expect((await list(r1, '?sort=password')).status).toBe(400);
    });

    it('sorts by the chosen column in either order', async () => {
      const asc = await list(r1, '?sort=name&order=asc&pageSize=3');
      expect(asc.body.map((p: { name: string }) => p.name)).toEqual(['Bulk 00', 'Bulk 01', 'Bulk 02']);
      const desc = await list(r1, '?sort=id&order=desc&pageSize=1');
      expect(desc.body[0].name).toBe('Bulk 24');
      const byStatus = await list(adminL, '?sort=status&order=desc&pageSize=1');
      expect(byStatus.body[0].status).toBe(ProjectStatus.OnRotation);
    });

    it('searches names ignoring case in Cyrillic, treats % literally, and finds by id', async () => {
      const cyr = await list(r1, `?search=${encodeURIComponent('ОПРОС')}`);
      expect(cyr.body.map((p: { name: string }) => p.name)).toEqual(['Опрос игроков ВКонтакте']);
      const pct = await list(r1, `?search=${encodeURIComponent('50%')}`);
      expect(pct.body.map((p: { name: string }) => p.name)).toEqual(['Своя аудитория 50%']);
      expect(
        Number((await list(r1, `?search=${encodeURIComponent('%')}`)).headers.get('x-total-count')),
      ).toBe(1);
      const byId = await list(r1, `?search=${ids['Таргет на студентов']}`);
      expect(byId.body.map((p: { id: number }) => p.id)).toContain(ids['Таргет на студентов']);
      // Search never widens what a role sees.
      expect((await list(r1, `?search=${encodeURIComponent('Чужой')}`)).body).toEqual([]);
    });

    it('filters by status and template (repeatable) and by target platform (tpid, ignored when empty)', async () => {
      const onMod = await list(r1, `?status=${ProjectStatus.OnModeration}`);
      expect(onMod.body.map((p: { id: number }) => p.id)).toEqual([ids['Таргет на студентов']]);
      const two = await list(
        adminL,
        `?status=${ProjectStatus.OnModeration}&status=${ProjectStatus.OnRotation}`,
      );
      expect(Number(two.headers.get('x-total-count'))).toBe(2);
      const targets = await list(adminL, '?template=target&template=directLink');
      expect(targets.body.map((p: { template: string }) => p.template).sort()).toEqual([
        'directLink',
        'target',
        'target',
      ]);
      const vk = await list(adminL, '?tpid=1');
      expect(vk.body.map((p: { id: number }) => p.id).sort()).toEqual(
        [ids['Опрос игроков ВКонтакте'], ids['Таргет на студентов']].sort(),
      );
      const yandexOwn = await list(r1, '?tpid=4');
      expect(yandexOwn.body.map((p: { id: number }) => p.id)).toEqual([ids['Таргет на студентов']]);
      const empty = await list(r1, '?tpid=');
      expect(Number(empty.headers.get('x-total-count'))).toBe(28);
      expect((await list(r1, '?tpid=abc')).status).toBe(400);
      expect((await list(r1, '?status=99')).status).toBe(400);
    });

    it('answers the fields of spec section 3, with editable per caller', async () => {
      const res = await list(r1, `?search=${encodeURIComponent('Таргет')}`);
      expect(res.body[0]).toMatchObject({
        id: ids['Таргет на студентов'],
        name: 'Таргет на студентов',
        priority: 0,
        organization: { id: org1, name: 'Org One' },
        template: 'target',
        type: 2,
        status: ProjectStatus.OnModeration,
        targetPlatformIds: [1, 4],
        editable: false,
      });
      expect(typeof res.body[0].createdAt).toBe('number');
    });
  });

  describe('object-level checks across organizations', () => {
    let pid: number;
    beforeAll(async () => {
      pid = (await createProject(server, researcherA, { name: 'Private to A' })).id;
    });

    it('answers 404 to a researcher of another organization for every call naming the project', async () => {
      // Calls a Researcher may never make (clone, project settings) answer 403 before any lookup
      // (the role is checked first), which says nothing about the project either.
      const calls: [string, string, unknown?, number?][] = [
        ['GET', `/project/project-settings?pid=${pid}`],
        ['PUT', '/project', { id: pid, name: 'Hijacked' }],
        ['DELETE', `/project?id=${pid}`],
        ['POST', '/project/clone', { id: pid }, 403],
        ['POST', '/project/status', { pid, status: ProjectStatus.OnModeration }],
        ['GET', `/project/link?pid=${pid}`],
        ['POST', '/project/project-settings', { pid, settings: { set_report_fill_online: false } }, 403],
      ];
      for (const [method, path, body, status = 404] of calls) {
        const res = await server.call(method, path, { session: researcherB, body });
        expect(res.status, `${method} ${path}`).toBe(status);
      }
      const row = await server.app.db
        .selectFrom('projects')
        .selectAll()
        .where('id', '=', pid)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'Private to A', status: ProjectStatus.Created, link_token: null });
    });

    it('hides a Created project from moderators (404), and shows it once sent', async () => {
      expect(
        (await server.call('GET', `/project/project-settings?pid=${pid}`, { session: moderator })).status,
      ).toBe(404);
      expect(
        (await server.call('POST', '/project/clone', { session: moderator, body: { id: pid } })).status,
      ).toBe(404);
    });

    it('lets a colleague of the same organization work on it', async () => {
      const res = await server.call('PUT', '/project', {
        session: researcherA2,
        body: { id: pid, name: 'Renamed by a colleague' },
      });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Renamed by a colleague');
    });
  });

  describe('rename, priority and platforms (PUT /project)', () => {
    it('renames an editable project and logs it; refuses with 409 once it was sent', async () => {
      const p = await createProject(server, researcherA, { name: 'Old name' });
      const res = await server.call('PUT', '/project', {
        session: researcherA,
        body: { id: p.id, name: '  New name  ' },
      });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('New name');
      expect(await historyKeys(server)).toContain('projects.log.renamed');
      await setStatus(server, p.id, ProjectStatus.OnModeration);
      const refused = await server.call('PUT', '/project', {
        session: researcherA,
        body: { id: p.id, name: 'Too late' },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('The project cannot be changed in its current status');
      const row = await server.app.db
        .selectFrom('projects')
        .select('name')
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow();
      expect(row.name).toBe('New name');
    });

    it('sets target platforms and refuses unknown ones', async () => {
      const p = await createProject(server, researcherA);
      const res = await server.call('PUT', '/project', {
        session: researcherA,
        body: { id: p.id, targetPlatformIds: [3, 1, 3] },
      });
      expect(res.body.targetPlatformIds).toEqual([1, 3]);
      expect(
        (
          await server.call('PUT', '/project', {
            session: researcherA,
            body: { id: p.id, targetPlatformIds: [0] },
          })
        ).status,
      ).toBe(400);
      expect(
        (await server.call('PUT', '/project', { session: researcherA, body: { id: p.id } })).status,
      ).toBe(400);
    });

    it('lets only holders of the settings permission change the priority', async () => {
      const p = await createProject(server, researcherA);
      expect(
        (await server.call('PUT', '/project', { session: researcherA, body: { id: p.id, priority: 7 } }))
          .status,
      ).toBe(403);
      expect(
        (await server.call('PUT', '/project', { session: admin, body: { id: p.id, priority: 101 } })).status,
      ).toBe(400);
      const ok = await server.call('PUT', '/project', { session: admin, body: { id: p.id, priority: 7 } });
      expect(ok.body.priority).toBe(7);
      // An administrator runs projects in any status: priority may change during rotation too.
      await setStatus(server, p.id, ProjectStatus.OnRotation);
      expect(
        (await server.call('PUT', '/project', { session: moderator, body: { id: p.id, priority: 9 } })).body
          .priority,
      ).toBe(9);
      // A moderator may not rename (content belongs to its writers).
      expect(
        (await server.call('PUT', '/project', { session: moderator, body: { id: p.id, name: 'Moderated' } }))
          .status,
      ).toBe(403);
    });
  });

  describe('delete (DELETE /project?id)', () => {
    it('deletes a researcher’s own draft with its content, and logs it', async () => {
      const p = await createProject(server, researcherA, { name: 'To delete', targetPlatformIds: [2] });
      await fillQuestionnaire(server, researcherA, p.id);
      const res = await server.call('DELETE', `/project?id=${p.id}`, { session: researcherA });
      expect(res.status).toBe(200);
      expect(
        await server.app.db.selectFrom('projects').select('id').where('id', '=', p.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await server.app.db
          .selectFrom('project_contents')
          .select('project_id')
          .where('project_id', '=', p.id)
          .executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await server.app.db
          .selectFrom('project_target_platforms')
          .select('project_id')
          .where('project_id', '=', p.id)
          .executeTakeFirst(),
      ).toBeUndefined();
      expect(await historyKeys(server)).toContain('projects.log.deleted');
      expect((await server.call('DELETE', `/project?id=${p.id}`, { session: researcherA })).status).toBe(404);
    });

    it('keeps a project that moderators or respondents are using (409), except for the Administrator', async () => {
      const p = await createProject(server, researcherA);
      await setStatus(server, p.id, ProjectStatus.OnRotation);
      const refused = await server.call('DELETE', `/project?id=${p.id}`, { session: researcherA });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('A project in status “On rotation” cannot be deleted');
      expect((await server.call('DELETE', `/project?id=${p.id}`, { session: moderator })).status).toBe(403);
      expect((await server.call('DELETE', `/project?id=${p.id}`, { session: admin })).status).toBe(200);
    });

    it('lets a researcher delete a finished project (from the reports list)', async () => {
      const p = await createProject(server, researcherA);
      await setStatus(server, p.id, ProjectStatus.ProjectFinished);
      expect((await server.call('DELETE', `/project?id=${p.id}`, { session: researcherA })).status).toBe(200);
    });

    it('validates the id', async () => {
      expect((await server.call('DELETE', '/project?id=abc', { session: researcherA })).status).toBe(400);
      expect((await server.call('DELETE', '/project', { session: researcherA })).status).toBe(400);
    });
  });

  describe('clone (POST /project/clone)', () => {
    it('is for the Administrator and Moderator only', async () => {
      const p = await createProject(server, researcherA);
      await setStatus(server, p.id, ProjectStatus.OnModeration);
      for (const [s, status] of [
        [researcherA, 403],
        [demoA, 403],
        [moderatorVK, 403],
        [issuer, 403],
      ] as [Session, number][]) {
        expect((await server.call('POST', '/project/clone', { session: s, body: { id: p.id } })).status).toBe(
          status,
        );
      }
      expect(
        (await server.call('POST', '/project/clone', { session: moderator, body: { id: p.id } })).status,
      ).toBe(201);
    });

    it('copies content, settings and platforms into a new Created project of the same organization', async () => {
      const p = await createProject(server, researcherA, {
        name: 'Original',
        template: 'target',
        targetPlatformIds: [1, 5],
      });
      await fillQuestionnaire(server, researcherA, p.id);
      expect(
        (
          await server.call('POST', '/project/project-settings', {
            session: admin,
            body: {
              pid: p.id,
              settings: { set_stat_fill_online: false, set_priority: 4, set_speeder_percent: 40 },
            },
          })
        ).status,
      ).toBe(200);
      await setStatus(server, p.id, ProjectStatus.OnRotation);
      await server.app.db
        .updateTable('projects')
        .set({ link_token: 'original-token' })
        .where('id', '=', p.id)
        .execute();

      const res = await server.call('POST', '/project/clone', { session: admin, body: { id: p.id } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Original (copy)',
        status: ProjectStatus.Created,
        organizationId: orgA,
      });
      const copy = await server.call('GET', `/projects?search=${encodeURIComponent('Original (copy)')}`, {
        session: researcherA,
      });
      expect(copy.body[0]).toMatchObject({
        template: 'target',
        type: 2,
        priority: 4,
        targetPlatformIds: [1, 5],
        editable: true,
      });
      const settings = await server.call('GET', `/project/project-settings?pid=${res.body.id}`, {
        session: researcherA,
      });
      expect(settings.body.settings).toEqual({
        set_priority: 4,
        set_report_fill_online: true,
        set_speeder_percent: 40,
        set_stat_fill_online: false,
      });
      const row = await server.app.db
        .selectFrom('projects')
        .select('link_token')
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(row.link_token).toBeNull();
      const content = await server.app.db
        .selectFrom('project_contents')
        .select('question_count')
        .where('project_id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(content.question_count).toBe(1);
      const ru = await server.call('POST', '/project/clone', {
        session: admin,
        body: { id: p.id },
        locale: 'ru',
      });
      expect(ru.body.name).toBe('Original (копия)');
    });
  });

  describe('roles × calls', () => {
    const ROLES: [
      string,
      () => Session,
      { list: number; create: number; status: number; settings: number },
    ][] = [
      ['Administrator', () => admin, { list: 200, create: 201, status: 200, settings: 200 }],
      ['Moderator', () => moderator, { list: 200, create: 403, status: 403, settings: 200 }],
      ['Moderator VK', () => moderatorVK, { list: 200, create: 403, status: 403, settings: 200 }],
      ['Researcher', () => researcherA, { list: 200, create: 201, status: 403, settings: 403 }],
      ['DemoResearcher', () => demoA, { list: 200, create: 201, status: 403, settings: 409 }],
      ['Issuer', () => issuer, { list: 403, create: 403, status: 404, settings: 404 }],
    ];
    it.each(ROLES)('%s', async (_name, session, expected) => {
      const s = session();
      expect((await server.call('GET', '/projects', { session: s })).status).toBe(expected.list);
      const body = {
        name: 'Role check',
        template: 'default',
        ...(s === admin ? { organizationId: orgA } : {}),
      };
      expect((await server.call('POST', '/projects', { session: s, body })).status).toBe(expected.create);
      // A project of organization A that has been sent, so moderators see it too.
      const p = await createProject(server, researcherA);
      await setStatus(server, p.id, ProjectStatus.OnModeration);
      expect(
        (
          await server.call('POST', '/project/status', {
            session: s,
            body: { pid: p.id, status: ProjectStatus.OnRotation },
          })
        ).status,
      ).toBe(expected.status);
      const settings = await server.call('POST', '/project/project-settings', {
        session: s,
        body: { pid: p.id, settings: { set_report_fill_online: false } },
      });
      expect(settings.status).toBe(expected.settings);
    });

    it('refuses every call without a session (401)', async () => {
      for (const [method, path] of [
        ['GET', '/projects'],
        ['POST', '/projects'],
        ['PUT', '/project'],
        ['DELETE', '/project?id=1'],
        ['POST', '/project/clone'],
        ['POST', '/project/status'],
        ['GET', '/project/link?pid=1'],
        ['GET', '/project/templates'],
        ['GET', '/project/settings'],
        ['GET', '/target-platforms'],
        ['GET', '/cities'],
      ]) {
        expect(
          (
            await server.call(method, path, {
              body: method === 'GET' || method === 'DELETE' ? undefined : {},
            })
          ).status,
          `${method} ${path}`,
        ).toBe(401);
      }
    });
  });

  describe('roles helper sanity', () => {
    it('uses distinct organizations for each ad-hoc role', () => {
      const orgs = [moderator, issuer].map((s) => s.user.organization?.id);
      expect(new Set(orgs).size).toBe(2);
      expect(([Role.Moderator] as RoleId[]).includes(moderator.user.role.id)).toBe(true);
    });
  });
});
