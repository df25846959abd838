import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { insertSurveyProject } from './survey-fixtures';
import { historyKeys } from './projects.helpers';
import { qualityContent, record } from './responses-fixtures';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { newPortrait } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import type { RespondentDetail, RespondentsPage } from '../../src/domain/responses';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  SAMPLE_PLACES,
} from '../../server/reports/sample';

// Issue 31's calls: the list's filters, sorting and paging; one respondent's answers; exclusion and
// restore by ids and by a filter with their refusals and log entries; erasure; reconciliation of a
// portrait's place; the downloads with the excluded; who may do what. Runs on SQLite, and on
// PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let orgId: number;
let owner: Session;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const people = sampleRespondents(4242, 80, content);
let pid: number;
let ids: number[];

beforeAll(async () => {
  server = await startServer();
  orgId = await server.createOrganization('Панель');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation, name: 'Ответы' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  ids = await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
});
afterAll(() => server?.close());

async function list(query: string, session: Session = owner) {
  const res = await server.call('GET', `/project/respondents?pid=${pid}${query}`, { session, locale: 'en' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RespondentsPage;
}
const exclusion = (body: Record<string, unknown>, session: Session = owner) =>
  server.call('POST', '/project/respondents/exclusion', { session, body, locale: 'en' });
const byStart = (a: number, b: number) =>
  Number(people[b].started_at) - Number(people[a].started_at) || ids[b] - ids[a];

describe('the respondents list', () => {
  it('pages the respondents newest first, and sorts by any of its keys', async () => {
    const first = await list('&pageSize=10');
    expect(first.total).toBe(80);
    const order = people.map((_, i) => i).sort(byStart);
    expect(first.items.map((r) => r.id)).toEqual(order.slice(0, 10).map((i) => ids[i]));
    const third = await list('&pageSize=10&page=3');
    expect(third.items.map((r) => r.id)).toEqual(order.slice(20, 30).map((i) => ids[i]));
    const row = first.items[0];
    const p = people[order[0]];
    expect(row).toMatchObject({
      startedAt: p.started_at,
      finishedAt: p.finished_at,
      profile: { gender: p.gender, age: p.age, city: p.city, education: p.education },
      exclusion: null,
      erasedAt: null,
      source: 'link',
    });
    const byDuration = (await list('&sort=-duration&pageSize=200')).items;
    const durations = byDuration.map((r) => r.durationSeconds);
    const ended = durations.filter((d) => d !== null) as number[];
    expect(ended).toEqual([...ended].sort((a, b) => b - a));
    // Those still answering have no duration: they come last either way.
    expect(durations.slice(ended.length).every((d) => d === null)).toBe(true);
    expect((await list('&sort=id&pageSize=5')).items.map((r) => r.id)).toEqual(ids.slice(0, 5));
  });

  it('filters by the report’s filters, the status, the dates and a written answer', async () => {
    const city = SAMPLE_PLACES[0].city;
    const expectIds = (page: RespondentsPage, keep: (i: number) => boolean) =>
      expect(page.items.map((r) => r.id).sort((a, b) => a - b)).toEqual(
        ids.filter((_, i) => keep(i)).sort((a, b) => a - b),
      );
    expectIds(
      await list(`&pageSize=200&gender=female&city=${encodeURIComponent(city)}`),
      (i) => people[i].gender === 'female' && people[i].city === city,
    );
    expectIds(
      await list('&pageSize=200&ageMin=20&ageMax=30'),
      (i) => people[i].age! >= 20 && people[i].age! <= 30,
    );
    expectIds(await list('&pageSize=200&status=inProgress'), (i) => people[i].status === 1);
    expectIds(await list('&pageSize=200&status=completed'), (i) => people[i].status === 2);
    expectIds(await list('&pageSize=200&status=screenedOut'), (i) => people[i].status === 3);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const from = day(people[0].started_at);
    expectIds(await list(`&pageSize=200&from=${from}&to=${from}`), (i) => day(people[i].started_at) === from);
    // Any written answer: "Ночной режим" is one of the sample's open answers, in any case.
    const open = questions.find((q) => q.category === 'open')!.id;
    const wrote = (i: number) =>
      people[i].answers.some(
        (a) => a.question_id === open && (a.text ?? '').toLowerCase().includes('ночной'),
      );
    expectIds(await list(`&pageSize=200&textSearch=${encodeURIComponent('НОЧНОЙ')}`), wrote);
  });

  it('refuses an unknown field, a page too large and dates out of order, by name', async () => {
    const bad = async (q: string, field: string) => {
      const res = await server.call('GET', `/project/respondents?pid=${pid}${q}`, {
        session: owner,
        locale: 'en',
      });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toMatch(new RegExp(field));
    };
    await bad('&colour=red', 'colour');
    await bad('&pageSize=201', 'pageSize');
    await bad('&from=2026-03-02&to=2026-03-01', 'to');
    await bad('&flag=lazy', 'flag');
    await bad('&excluded=some', 'excluded');
  });
});

describe('one respondent', () => {
  it('gives the answers in the order asked, as texts, with the order they were shown', async () => {
    const { pid: qp } = await insertSurveyProject(server, qualityContent());
    const org = await server.app.db
      .selectFrom('projects')
      .select('organization_id')
      .where('id', '=', qp)
      .executeTakeFirstOrThrow();
    const researcher = await server.as(Role.Researcher, { organizationId: org.organization_id });
    const id = await record(server, qp, 'normal', 2, Date.UTC(2026, 3, 1));
    const res = await server.call('GET', `/project/respondent?pid=${qp}&id=${id}`, { session: researcher });
    expect(res.status).toBe(200);
    const d = res.body as RespondentDetail;
    expect(d.answers.map((a) => a.questionId)).toEqual([
      'genre',
      'why',
      'grid',
      'st1',
      'np1',
      'sl1',
      'st2',
      'np2',
    ]);
    const genre = d.answers[0];
    // Shuffled per respondent: the order shown is theirs, and the pick is the third shown.
    expect(genre.shown.map((a) => a.id).sort()).toEqual(['g1', 'g2', 'g3']);
    expect(genre.picked).toEqual([genre.shown[2]]);
    expect(genre.text).toBe('Favourite genre');
    expect(d.answers[1]).toMatchObject({ category: 'open', written: 'Play with friends' });
    expect(d.answers[2].cells).toEqual(
      ['s1', 's2', 's3', 's4'].map((s, k) => ({
        statementId: s,
        statement: s.toUpperCase(),
        answerId: `c${((k + 2) % 3) + 1}`,
        answer: `C${((k + 2) % 3) + 1}`,
      })),
    );
    expect(d.answers[3]).toMatchObject({ value: 4, number: 4 });
    // An id of another project is refused, not shown.
    const other = await server.call('GET', `/project/respondent?pid=${qp}&id=${ids[0]}`, {
      session: researcher,
      locale: 'en',
    });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      code: 'respondent-not-found',
      message: `This project has no respondent ${ids[0]}`,
    });
  });

  it('reads a respondent written in bulk from their answer rows', async () => {
    const i = people.findIndex((p) => p.status === 2);
    const res = await server.call('GET', `/project/respondent?pid=${pid}&id=${ids[i]}`, { session: owner });
    expect(res.status).toBe(200);
    expect(res.body.pageTimes).toBe(false);
    const answered = new Set(people[i].answers.map((a) => a.question_id));
    expect(res.body.answers.map((a: { questionId: string }) => a.questionId)).toEqual(
      questions.filter((q) => answered.has(q.id)).map((q) => q.id),
    );
  });
});

describe('exclusion', () => {
  it('refuses bad requests with a message, and changes nothing', async () => {
    const before = await list('&pageSize=1');
    const refused = async (body: Record<string, unknown>, status: number, code?: string, field?: string) => {
      const res = await exclusion(body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toBeTruthy();
      if (code) expect(res.body.code).toBe(code);
      if (field) expect(res.body.field).toBe(field);
    };
    await refused({ pid, ids: [ids[0]], excluded: true, reason: 'x', colour: 1 }, 400, undefined, 'colour');
    await refused({ pid, ids: [ids[0]], excluded: true }, 400, undefined, 'reason');
    await refused({ pid, excluded: true, reason: 'x' }, 400, undefined, 'ids');
    await refused({ pid, ids: [ids[0]], filter: {}, excluded: true, reason: 'x' }, 400, undefined, 'ids');
    await refused(
      { pid, filter: { gender: 'other' }, excluded: true, reason: 'x' },
      400,
      undefined,
      'filter.gender',
    );
    // An id of another project.
    const otherPid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation });
    await refused({ pid: otherPid, ids: [ids[0]], excluded: true, reason: 'x' }, 400, 'respondent-not-found');
    // A filter that matches nothing.
    await refused(
      { pid, filter: { ageMin: '98' }, excluded: true, reason: 'x' },
      400,
      'nothing-matches',
      'filter',
    );
    // Someone still answering.
    const answering = ids[people.findIndex((p) => p.status === 1)];
    await refused({ pid, ids: [answering], excluded: true, reason: 'x' }, 409, 'still-answering');
    expect((await list('&pageSize=1')).total).toBe(before.total);
    expect((await list('&excluded=only')).total).toBe(0);
  });

  it('excludes and restores by ids and by a filter, and writes who and how many to the logs', async () => {
    const done = people.map((_, i) => i).filter((i) => people[i].status === 2);
    const two = [ids[done[0]], ids[done[1]]];
    const res = await exclusion({ pid, ids: two, excluded: true, reason: 'Проверка качества' });
    expect(res.body).toEqual({ affected: 2, quotaPlaces: 0 });
    // Excluding again changes nothing.
    expect((await exclusion({ pid, ids: two, excluded: true, reason: 'Ещё раз' })).body.affected).toBe(0);
    const only = await list('&excluded=only');
    expect(only.items.map((r) => r.id).sort()).toEqual([...two].sort());
    expect(only.items[0].exclusion).toMatchObject({
      reason: 'Проверка качества',
      author: { id: owner.user.id, email: owner.user.email, fullname: owner.user.fullname },
    });
    expect((await list('&excluded=none')).total).toBe(78);
    const report = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: owner });
    expect(report.body.respondents.excluded).toBe(2);
    expect(report.body.price).toMatchObject({ excluded: 2 });
    // By a filter: everyone of the list's filter, those still answering passed over.
    const men = await exclusion({
      pid,
      filter: { gender: 'male', status: 'completed' },
      excluded: true,
      reason: 'Мужчины',
    });
    const menDone = people.filter((p) => p.gender === 'male' && p.status === 2).length;
    expect(men.body.affected).toBe(
      menDone - two.filter((id) => people[ids.indexOf(id)].gender === 'male').length,
    );
    const excludedNow = (await list('&excluded=only')).total;
    expect(excludedNow).toBe(menDone + two.filter((id) => people[ids.indexOf(id)].gender !== 'male').length);
    const back = await exclusion({ pid, filter: { excluded: 'only' }, excluded: false });
    expect(back.body.affected).toBe(excludedNow);
    expect((await list('&excluded=only')).total).toBe(0);
    const admin = await server.as(Role.Administrator);
    const logs = await server.call('GET', '/history?chapter=reports', { session: admin, locale: 'en' });
    const messages = (logs.body as { message: string; email: string }[]).map(
      (e) => `${e.email}: ${e.message}`,
    );
    expect(messages).toContain(
      `${owner.user.email}: Respondents of project ${pid} excluded: 2. Reason: Проверка качества`,
    );
    expect(messages).toContain(
      `${owner.user.email}: Respondents of project ${pid} restored to the report: ${back.body.affected}`,
    );
    expect(await historyKeys(server)).toContain('quality.log.excluded');
  });
});

describe('erasure', () => {
  it('erases answers and profile, keeps an anonymous excluded row, and cannot be undone', async () => {
    const i = people.findIndex((p) => p.status === 2 && p.gender !== null);
    const id = ids[i];
    const before = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: owner });
    const res = await server.call('DELETE', '/project/respondent', { session: owner, body: { pid, id } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .select('id')
      .where('respondent_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
    const [row] = (await list(`&excluded=only`)).items.filter((r) => r.id === id);
    expect(row.erasedAt).not.toBeNull();
    expect(row.profile).toEqual({ gender: null, age: null, city: null, cityName: null, education: null });
    expect(row.exclusion!.reason).toBe('Erased at the respondent’s request');
    expect(row.status).toBe('completed');
    const after = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: owner });
    expect(after.body.respondents.completed).toBe(before.body.respondents.completed - 1);
    expect(after.body.respondents.excluded).toBe(before.body.respondents.excluded + 1);
    const again = await server.call('DELETE', '/project/respondent', {
      session: owner,
      body: { pid, id },
      locale: 'en',
    });
    expect(again.status).toBe(409);
    const restore = await exclusion({ pid, ids: [id], excluded: false });
    expect(restore.status).toBe(409);
    expect(restore.body.code).toBe('respondent-erased');
    expect(await historyKeys(server)).toContain('quality.log.erased');
  });
});

describe('reconciliation', () => {
  /** A target project with one portrait of `respondents` places, and a researcher of its organization. */
  async function portraitProject(respondents: number) {
    const c = { ...qualityContent(), portraits: [newPortrait({ id: 'all', respondents, params: [] })] };
    const { pid: rp } = await insertSurveyProject(server, c, { template: 'target' });
    const org = await server.app.db
      .selectFrom('projects')
      .select('organization_id')
      .where('id', '=', rp)
      .executeTakeFirstOrThrow();
    return { rp, researcher: await server.as(Role.Researcher, { organizationId: org.organization_id }) };
  }

  it('frees a completed respondent’s portrait place while the project runs, and takes it back on restore', async () => {
    const { rp, researcher } = await portraitProject(2);
    const first = await record(server, rp, 'normal', 1, Date.now() - 3_600_000);
    await record(server, rp, 'normal', 2, Date.now() - 1_800_000);
    const quota = () =>
      server.app.db
        .selectFrom('portrait_quotas')
        .select('completed')
        .where('project_id', '=', rp)
        .executeTakeFirstOrThrow();
    expect((await quota()).completed).toBe(2);
    const status = async () =>
      (
        await server.app.db
          .selectFrom('projects')
          .select('status')
          .where('id', '=', rp)
          .executeTakeFirstOrThrow()
      ).status;
    // Full: the project finished. Back On rotation (an administrator's call) to show the freed place.
    expect(await status()).toBe(ProjectStatus.SurveyFinished);
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnRotation })
      .where('id', '=', rp)
      .execute();
    const out = await server.call('POST', '/project/respondents/exclusion', {
      session: researcher,
      body: { pid: rp, ids: [first], excluded: true, reason: 'Брак' },
    });
    expect(out.body).toEqual({ affected: 1, quotaPlaces: 1 });
    expect((await quota()).completed).toBe(1);
    // Someone else takes the place.
    await record(server, rp, 'normal', 3, Date.now() - 60_000);
    expect((await quota()).completed).toBe(2);
    const report = await server.call('GET', `/project/stats/file?pid=${rp}&type=json`, {
      session: researcher,
    });
    expect(report.body.field.portraits[0]).toMatchObject({
      target: 2,
      accepted: 2,
      excluded: 1,
      state: 'full',
    });
    // Restored: the portrait is full, so the place cannot be taken back (the quota never overshoots).
    const back = await server.call('POST', '/project/respondents/exclusion', {
      session: researcher,
      body: { pid: rp, ids: [first], excluded: false },
    });
    expect(back.body).toEqual({ affected: 1, quotaPlaces: 0 });
    expect((await quota()).completed).toBe(2);
  });

  it('frees nothing once the project has stopped', async () => {
    const { rp, researcher } = await portraitProject(5);
    const id = await record(server, rp, 'normal', 1, Date.now() - 60_000);
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.Stopped })
      .where('id', '=', rp)
      .execute();
    const out = await server.call('POST', '/project/respondents/exclusion', {
      session: researcher,
      body: { pid: rp, ids: [id], excluded: true, reason: 'Брак' },
    });
    expect(out.body).toEqual({ affected: 1, quotaPlaces: 0 });
  });
});

describe('downloads', () => {
  it('leave the excluded out, or mark them with EXCLUDED when asked', async () => {
    const done = people.map((_, i) => i).filter((i) => people[i].status === 2);
    await exclusion({ pid, ids: [ids[done[5]]], excluded: true, reason: 'Файл' });
    const counted = await list('&excluded=none');
    const csv = async (q: string) => {
      const res = await fetch(
        `${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats&format=csv${q}`,
        {
          headers: {
            'x-auth-token': owner.accessToken,
            'x-refresh-token': owner.refreshToken,
            'accept-language': 'en',
          },
        },
      );
      expect(res.status).toBe(200);
      return (await res.text())
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
    };
    const plain = await csv('');
    expect(plain).toHaveLength(counted.total + 1);
    expect(plain[0]).not.toMatch(/Excluded/);
    const all = await csv('&includeExcluded=1');
    expect(all).toHaveLength(people.length + 1);
    const header = all[0].split(',');
    const col = header.indexOf('Excluded');
    expect(col).toBeGreaterThan(0);
    const marked = all.slice(1).filter((line) => line.split(',')[col] === '1');
    expect(marked.length).toBe((await list('&excluded=only')).total);
  });

  it('write the filtered list as a workbook with its flags and exclusions', async () => {
    const res = await fetch(
      `${server.url}/api/v1/service/project/respondents/file?pid=${pid}&format=xlsx&status=completed&excluded=all`,
      {
        headers: {
          'x-auth-token': owner.accessToken,
          'x-refresh-token': owner.refreshToken,
          'accept-language': 'en',
        },
      },
    );
    expect(res.status).toBe(200);
    // Named apart from the report's download of the same project ("Ответы.xlsx").
    expect(res.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Ответы - respondents.xlsx')}`,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets).toHaveLength(1);
    const sheet = wb.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Excluded', 'Quality flags', 'Exclusion reason']));
    expect(sheet.actualRowCount - 1).toBe((await list('&status=completed&excluded=all')).total);
  });
});

describe('who may', () => {
  it('read: whoever reads the report; change: the project’s researchers and the administrator', async () => {
    const stranger = await server.as(Role.Researcher, {
      organizationId: await server.createOrganization('Чужие'),
    });
    const moderator = await server.as(Role.Moderator);
    const issuer = await server.as(Role.Issuer);
    const demo = await server.as(Role.DemoResearcher, { organizationId: orgId });
    const admin = await server.as(Role.Administrator);
    const read = (s: Session) => server.call('GET', `/project/respondents?pid=${pid}`, { session: s });
    expect((await read(stranger)).status).toBe(404);
    expect((await read(issuer)).status).toBe(404);
    expect((await read(moderator)).status).toBe(200);
    expect((await read(demo)).status).toBe(200);
    expect((await read(admin)).status).toBe(200);
    const done = ids[people.findIndex((p) => p.status === 2)];
    const change = (s: Session) => exclusion({ pid, ids: [done], excluded: true, reason: 'Кто угодно' }, s);
    expect((await change(moderator)).status).toBe(403);
    expect((await change(demo)).status).toBe(403);
    expect((await change(issuer)).status).toBe(403);
    expect((await change(stranger)).status).toBe(404);
    expect((await change(admin)).status).toBe(200);
    const erase = (s: Session) =>
      server.call('DELETE', '/project/respondent', { session: s, body: { pid, id: done } });
    expect((await erase(moderator)).status).toBe(403);
    expect((await erase(stranger)).status).toBe(404);
    const anonymous = await server.call('GET', `/project/respondents?pid=${pid}`);
    expect(anonymous.status).toBe(401);
  });
});
