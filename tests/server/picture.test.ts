import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { LIMITS } from '../../src/domain/content/limits';

// POST /picture (multipart `images` parts) and the public GET /pictures/<hash>.<ext>: the type is
// judged by the bytes, 5 MB at most, a bad file stores nothing, and only editors may upload. Pictures
// live in the database (022), so DATA_DIR holds no uploads folder; they are served with a strong
// ETag, a year's immutable caching and 304 for a conditional request.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF\0rest-of-jpeg')]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(14),
]);

function form(files: { name: string; bytes: Buffer; type?: string; field?: string }[]) {
  const fd = new FormData();
  for (const f of files)
    fd.append(
      f.field ?? 'images',
      new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  return fd;
}

let server: TestServer;
let researcher: Session;
const upload = (session: Session | undefined, fd: FormData) =>
  server.call('POST', '/picture', { session, rawBody: fd });
/** The pictures in the database, as `<hash>.<ext>` with their size. */
const stored = async () =>
  (
    await server.app.db
      .selectFrom('pictures')
      .select(['hash', 'ext', 'size', 'bytes'])
      .orderBy('hash')
      .execute()
  ).map((r) => `${r.hash}.${r.ext} ${r.size} ${r.bytes?.length}`);

beforeAll(async () => {
  server = await startServer();
  researcher = await server.as(Role.Researcher);
});
afterAll(async () => server?.close());

describe('POST /picture', () => {
  it('stores each picture by its content hash, answers its URL, and serves it back with long caching', async () => {
    const res = await upload(
      researcher,
      form([
        { name: 'a.png', bytes: PNG },
        { name: 'photo.JPG', bytes: JPG },
        { name: 'anim.gif', bytes: GIF },
        { name: 'w.webp', bytes: WEBP },
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const hash = crypto.createHash('sha256').update(PNG).digest('hex');
    expect(res.body[0]).toEqual({
      url: `/api/v1/service/pictures/${hash}.png`,
      hash,
      type: 'image/png',
      size: PNG.length,
      name: 'a.png',
    });
    expect(res.body.map((r: { type: string }) => r.type)).toEqual([
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
    ]);
    expect(await stored()).toContain(`${hash}.png ${PNG.length} ${PNG.length}`);
    // Nothing on the disk: DATA_DIR holds the SQLite file (and a mail outbox) only.
    expect(fs.readdirSync(server.config.dataDir).filter((f) => !f.startsWith('survey.sqlite'))).toEqual([]);

    const get = await fetch(server.url + res.body[0].url);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('image/png');
    expect(get.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(get.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await get.arrayBuffer()).equals(PNG)).toBe(true);
    expect(get.headers.get('etag')).toBe(`"${hash}"`);
    expect(get.headers.get('content-length')).toBe(String(PNG.length));
    const again = await fetch(server.url + res.body[0].url, { headers: { 'if-none-match': `"${hash}"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(`"${hash}"`);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 304 for any tag of a list, a weak copy of the tag or *, and 200 for another tag', async () => {
    const res = await upload(researcher, form([{ name: 'w.webp', bytes: WEBP }]));
    const { url, hash } = res.body[0];
    const status = async (inm: string) =>
      (await fetch(server.url + url, { headers: { 'if-none-match': inm } })).status;
    expect(await status(`"${'1'.repeat(64)}", "${hash}"`)).toBe(304);
    expect(await status(`W/"${hash}"`)).toBe(304);
    expect(await status('*')).toBe(304);
    expect(await status(`"${'1'.repeat(64)}"`)).toBe(200);
    // HEAD: the headers without the bytes.
    const head = await fetch(server.url + url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(WEBP.length));
    expect(head.headers.get('etag')).toBe(`"${hash}"`);
    // The same bytes under another type's name are not that picture.
    expect((await fetch(server.url + url.replace('.webp', '.png'))).status).toBe(404);
  });

  it('stores the same bytes once, however often and by whomever they are uploaded', async () => {
    const bytes = Buffer.concat([JPG, crypto.randomBytes(32)]);
    const other = await server.as(Role.Administrator);
    const a = await upload(
      researcher,
      form([
        { name: 'one.jpg', bytes },
        { name: 'two.jpg', bytes },
      ]),
    );
    const b = await upload(other, form([{ name: 'three.jpg', bytes }]));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(new Set([...a.body, ...b.body].map((p: { url: string }) => p.url)).size).toBe(1);
    const hash = a.body[0].hash;
    expect((await stored()).filter((s) => s.startsWith(hash))).toEqual([
      `${hash}.jpg ${bytes.length} ${bytes.length}`,
    ]);
  });

  it('judges the type by the bytes, not the name: a text file named .png is refused and nothing is stored', async () => {
    const before = await stored();
    const res = await upload(
      researcher,
      form([
        { name: 'ok.png', bytes: Buffer.concat([PNG, Buffer.from('different')]) },
        { name: 'evil.png', bytes: Buffer.from('<svg onload="alert(1)"></svg>'), type: 'image/png' },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'bad-type',
      message: 'The file “evil.png” is not a JPEG, PNG, WebP or GIF picture',
    });
    expect(await stored()).toEqual(before);
  });

  it('refuses a file over 5 MB by name, storing nothing', async () => {
    const before = await stored();
    const big = Buffer.concat([PNG, Buffer.alloc(LIMITS.imageBytes)]);
    const res = await upload(researcher, form([{ name: 'huge.png', bytes: big }]));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The file “huge.png” is larger than 5 MB');
    expect(await stored()).toEqual(before);
    // Exactly 5 MB is allowed, and comes back whole from the database.
    const edge = Buffer.concat([PNG, Buffer.alloc(LIMITS.imageBytes - PNG.length, 7)]);
    const ok = await upload(researcher, form([{ name: 'edge.png', bytes: edge }]));
    expect(ok.status).toBe(200);
    const back = Buffer.from(await (await fetch(server.url + ok.body[0].url)).arrayBuffer());
    expect(back.equals(edge)).toBe(true);
  });

  it('refuses more pictures than one call may carry, no pictures, and a body that is not multipart', async () => {
    const many = Array.from({ length: LIMITS.imagesPerUpload + 1 }, (_, i) => ({
      name: `${i}.png`,
      bytes: Buffer.concat([PNG, Buffer.from([i])]),
    }));
    const res = await upload(researcher, form(many));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('too-many');
    expect((await upload(researcher, form([{ name: 'x.png', bytes: PNG, field: 'other' }]))).body.code).toBe(
      'no-files',
    );
    const json = await server.call('POST', '/picture', { session: researcher, body: { images: [] } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('not-multipart');
  });

  it.each([
    [Role.Administrator, 200],
    [Role.Researcher, 200],
    [Role.DemoResearcher, 200],
    [Role.Moderator, 403],
    [Role.ModeratorVK, 403],
    [Role.Issuer, 403],
  ])('role %i → %i', async (role, status) => {
    const session = await server.as(role);
    expect((await upload(session, form([{ name: 'a.png', bytes: PNG }]))).status).toBe(status);
  });

  it('refuses an anonymous upload', async () => {
    expect((await upload(undefined, form([{ name: 'a.png', bytes: PNG }]))).status).toBe(401);
  });

  it('answers 404 for pictures that do not exist or names that are not hashes', async () => {
    expect((await fetch(`${server.url}/api/v1/service/pictures/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/service/pictures/..%2F..%2Fsurvey.sqlite`)).status).toBe(404);
  });

  it('lets a question use an uploaded picture, and a save then keeps it', async () => {
    const up = await upload(researcher, form([{ name: 'q.gif', bytes: GIF }]));
    const pid = await insertProject(server, researcher.user.organization!.id);
    const content = completeContent();
    content.questionnaires[0].blocks[0].questions[0].picture = up.body[0].url;
    content.questionnaires[0].blocks[0].questions[0].answers[0].picture = up.body[0].url;
    const res = await saveProject(server, researcher, pid, content, 0);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
