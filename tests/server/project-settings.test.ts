import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { createProject, historyKeys, setStatus } from './projects.helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';

// Project settings: definitions and groups, one project's values, and who may change them
// (project-editor.change-project-settings: every role except Researcher), with set_priority kept
// as the project's priority.

describe('project settings', () => {
  let server: TestServer;
  let org: number;
  let admin: Session;
  let researcher: Session;
  let demo: Session;
  let moderator: Session;
  let moderatorVK: Session;

  beforeAll(async () => {
    server = await startServer();
    org = await server.createOrganization();
    admin = await server.as(Role.Administrator, { organizationId: null });
    researcher = await server.as(Role.Researcher, { organizationId: org });
    demo = await server.as(Role.DemoResearcher, { organizationId: org });
    moderator = await server.as(Role.Moderator);
    moderatorVK = await server.as(Role.ModeratorVK);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the settings with their groups, kinds and translated names', async () => {
    const settings = await server.call('GET', '/project/settings', { session: researcher });
    expect(
      settings.body.map((s: { key: string; group: string; kind: string }) => [s.key, s.group, s.kind]),
    ).toEqual([
      ['set_priority', 'grp_basic', 'integer'],
      ['set_report_fill_online', 'grp_reporting', 'boolean'],
      ['set_stat_fill_online', 'grp_reporting', 'boolean'],
      ['set_speeder_percent', 'grp_reporting', 'integer'],
    ]);
    expect(settings.body[0]).toMatchObject({ name: 'Priority', min: 0, max: 100 });
    const groups = await server.call('GET', '/project/settings-groups', {
      session: researcher,
      locale: 'ru',
    });
    expect(groups.body).toEqual([
      { key: 'grp_basic', name: 'Основные' },
      { key: 'grp_reporting', name: 'Отчётность' },
    ]);
  });

  it('answers a project’s values with the defaults, and whether the caller may change them', async () => {
    const p = await createProject(server, researcher);
    const mine = await server.call('GET', `/project/project-settings?pid=${p.id}`, { session: researcher });
    expect(mine.body).toEqual({
      pid: p.id,
      settings: {
        set_priority: 0,
        set_report_fill_online: true,
        set_stat_fill_online: true,
        set_speeder_percent: 50,
      },
      canChange: false,
    });
    expect(
      (await server.call('GET', `/project/project-settings?pid=${p.id}`, { session: demo })).body.canChange,
    ).toBe(true);
    expect((await server.call('GET', '/project/project-settings?pid=abc', { session: demo })).status).toBe(
      400,
    );
  });

  it('refuses the Researcher (403) and writes nothing', async () => {
    const p = await createProject(server, researcher);
    const res = await server.call('POST', '/project/project-settings', {
      session: researcher,
      body: { pid: p.id, settings: { set_report_fill_online: false } },
    });
    expect(res.status).toBe(403);
    expect(
      await server.app.db.selectFrom('project_settings').selectAll().where('project_id', '=', p.id).execute(),
    ).toEqual([]);
  });

  it('lets a demo researcher change them while the project is editable, and keeps priority in one place', async () => {
    const p = await createProject(server, researcher);
    const res = await server.call('POST', '/project/project-settings', {
      session: demo,
      body: { pid: p.id, settings: { set_priority: 30, set_stat_fill_online: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      set_priority: 30,
      set_report_fill_online: true,
      set_stat_fill_online: false,
      set_speeder_percent: 50,
    });
    const listed = await server.call('GET', `/projects?search=${p.id}`, { session: researcher });
    expect(listed.body[0].priority).toBe(30);
    expect(await historyKeys(server)).toContain('projects.log.settingsChanged');
    await setStatus(server, p.id, ProjectStatus.OnModeration);
    const late = await server.call('POST', '/project/project-settings', {
      session: demo,
      body: { pid: p.id, settings: { set_priority: 1 } },
    });
    expect(late.status).toBe(409);
  });

  it('lets the Administrator and both moderators change them in any status they see', async () => {
    const p = await createProject(server, researcher);
    await setStatus(server, p.id, ProjectStatus.OnRotation);
    for (const [s, value] of [
      [admin, 10],
      [moderator, 20],
      [moderatorVK, 40],
    ] as [Session, number][]) {
      const res = await server.call('POST', '/project/project-settings', {
        session: s,
        body: { pid: p.id, settings: { set_priority: value } },
      });
      expect(res.status).toBe(200);
      expect(res.body.settings.set_priority).toBe(value);
    }
  });

  it('refuses unknown keys, wrong types, out-of-range priority and empty changes with 400', async () => {
    const p = await createProject(server, researcher);
    const bad = [
      { pid: p.id, settings: { set_colour: 'red' } },
      { pid: p.id, settings: { set_report_fill_online: 'yes' } },
      { pid: p.id, settings: { set_priority: -1 } },
      { pid: p.id, settings: { set_priority: 1.5 } },
      { pid: p.id, settings: {} },
      { pid: p.id },
    ];
    for (const body of bad) {
      const res = await server.call('POST', '/project/project-settings', { session: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const missing = await server.call('POST', '/project/project-settings', {
      session: admin,
      body: { pid: p.id },
    });
    expect(missing.body.message).toBe('settings: This field is required');
  });
});
