import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startServer, type Session, type TestServer } from './helpers';
import { completeContent, insertProject, saveProject } from './content-helpers';
import { bigProject } from '../unit/content-fixtures';
import { Role } from '../../src/domain/roles';
import { preferredEncoding } from '../../server/http/compressed';
import { ProjectStatus } from '../../src/domain/projects';
import { writeContent } from '../../server/repos/content';
import { writeSetting } from '../../server/repos/projects';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// GET /project sends a version's compressed body made once (server/http/compressed.ts): the body
// must be exactly the JSON once decompressed, change with a new version, carry the version as its
// ETag, and still say who asks (editable, permissions).

let server: TestServer;
let researcher: Session;
let moderator: Session;
let org: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization('Compressed');
  researcher = await server.as(Role.Researcher, { organizationId: org });
  moderator = await server.as(Role.Administrator, { organizationId: org });
});
afterAll(() => server.close());

/** A GET with the raw bytes as sent (fetch would decompress them on its own). */
function raw(path: string, session: Session, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.get(
        `${server.url}${API}${path}`,
        { headers: { 'x-auth-token': session.accessToken, 'accept-language': 'en', ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
    },
  );
}

const decode = (r: { headers: http.IncomingHttpHeaders; body: Buffer }) => {
  const enc = r.headers['content-encoding'];
  const bytes =
    enc === 'br' ? zlib.brotliDecompressSync(r.body) : enc === 'gzip' ? zlib.gunzipSync(r.body) : r.body;
  return bytes.toString('utf8');
};

describe('GET /project compressed once per version', () => {
  it('sends brotli to a browser, gzip without br, the plain JSON without either: the same text', async () => {
    const pid = await insertProject(server, org, { name: 'Big' });
    expect((await saveProject(server, researcher, pid, bigProject(), 0)).status).toBe(200);
    const plain = await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.body.toString('utf8');
    expect(JSON.parse(json).content).toEqual(JSON.parse(JSON.stringify(bigProject())));

    for (let i = 0; i < 2; i++) {
      const br = await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe('"1"');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(br.body.length).toBeLessThan(json.length / 10);
      expect(decode(br)).toBe(json);
    }
    const gz = await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toBe(json);
  });

  it('changes with a new version, and its ETag with it', async () => {
    const pid = await insertProject(server, org, { name: 'Versions' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const first = await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'br' });
    const v1 = JSON.parse(decode(first));
    expect(v1.version).toBe(1);
    const changed = structuredClone(v1.content);
    changed.questionnaires[0].blocks[0].questions[0].text = 'How old are you now?';
    expect((await saveProject(server, researcher, pid, changed, first.headers.etag)).status).toBe(200);
    const second = await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'br' });
    expect(second.headers.etag).toBe('"2"');
    const v2 = JSON.parse(decode(second));
    expect(v2.version).toBe(2);
    expect(v2.content.questionnaires[0].blocks[0].questions[0].text).toBe('How old are you now?');
    const plain = await raw(`/project?pid=${pid}`, researcher, {});
    expect(decode(second)).toBe(plain.body.toString('utf8'));
  });

  it('still says, for the same version, what each caller may do', async () => {
    const pid = await insertProject(server, org, { name: 'Roles' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const mine = JSON.parse(
      decode(await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'br' })),
    );
    const admin = JSON.parse(
      decode(await raw(`/project?pid=${pid}`, moderator, { 'accept-encoding': 'br' })),
    );
    expect(mine.permissions).toEqual({ blockSettings: false, customParams: false });
    expect(admin.permissions).toEqual({ blockSettings: true, customParams: true });
    // A rename changes the head but not the version: the new name is sent.
    await server.app.db.updateTable('projects').set({ name: 'Renamed' }).where('id', '=', pid).execute();
    const renamed = JSON.parse(
      decode(await raw(`/project?pid=${pid}`, researcher, { 'accept-encoding': 'br' })),
    );
    expect(renamed.name).toBe('Renamed');
  });

  it('answers If-None-Match with the whole body: the ETag names the content version, not who asks', async () => {
    const pid = await insertProject(server, org, { name: 'Conditional' });
    expect((await saveProject(server, researcher, pid, completeContent(), 0)).status).toBe(200);
    const res = await raw(`/project?pid=${pid}`, researcher, {
      'accept-encoding': 'br',
      'if-none-match': '"1"',
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(decode(res)).version).toBe(1);
  });

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('deflate')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });
});

describe('GET /project/stats/file?type=json kept once final', () => {
  async function reportProject(status: number) {
    const pid = await insertProject(server, org, { name: 'Report', status });
    const content = sampleContent();
    await writeContent(server.app.db, pid, 0, content, null);
    await insertRespondents(
      server.app.db,
      pid,
      content.questionnaires[0].id,
      sampleRespondents(3, 40, content),
    );
    return { pid, content };
  }
  const report = async (pid: number, enc = 'gzip, deflate, br') => {
    const res = await raw(`/project/stats/file?type=json&pid=${pid}`, researcher, { 'accept-encoding': enc });
    expect(res.status).toBe(200);
    return { res, text: decode(res) };
  };

  it('sends the same final report, compressed or not, until the project moves', async () => {
    const { pid, content } = await reportProject(ProjectStatus.SurveyFinished);
    const first = await report(pid);
    expect(first.res.headers['content-encoding']).toBe('br');
    const json = JSON.parse(first.text);
    expect(json.final).toBe(true);
    expect(json.respondents.started).toBe(40);
    expect((await report(pid, 'identity')).text).toBe(first.text);
    expect((await report(pid, 'gzip')).text).toBe(first.text);
    // Rows that only a move of the project can bring (answers are written only On rotation): the
    // move changes updated_at, and the report is made again.
    await insertRespondents(
      server.app.db,
      pid,
      content.questionnaires[0].id,
      sampleRespondents(4, 10, content),
    );
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.ProjectFinished, updated_at: Date.now() + 1 })
      .where('id', '=', pid)
      .execute();
    const moved = JSON.parse((await report(pid)).text);
    expect(moved.respondents.started).toBe(50);
    expect(moved.project.status).toBe(ProjectStatus.ProjectFinished);
  });

  it('builds a live report on every call', async () => {
    const { pid, content } = await reportProject(ProjectStatus.OnRotation);
    await writeSetting(server.app.db, pid, 'set_report_fill_online', true);
    expect(JSON.parse((await report(pid)).text).respondents.started).toBe(40);
    await insertRespondents(
      server.app.db,
      pid,
      content.questionnaires[0].id,
      sampleRespondents(5, 5, content),
    );
    expect(JSON.parse((await report(pid)).text).respondents.started).toBe(45);
  });
});
