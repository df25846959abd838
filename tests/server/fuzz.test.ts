import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { ACCESS, admittedRoles } from './access-table';
import { concretePath, roleName, roleUsers, routeKey } from './matrix-harness';
import {
  allFieldsOf,
  badQueries,
  badValues,
  baseOf,
  fieldsOf,
  RAW_BODIES,
  REMOVE,
  sizeCases,
  withValue,
} from './fuzz-cases';
import { completeContent, insertProject, saveProject } from './content-helpers';
import { ROUTE_DOCS } from '../../server/openapi/registry';
import type { RouteEntry } from '../../server/http/route-table';
import { Role, type RoleId } from '../../src/domain/roles';
import { ProjectType } from '../../src/domain/projects';

// Issue #17, item 10: every route of the route table gets generated bad bodies and query strings,
// signed in (as a role the access table admits, so the input reaches validation and the database)
// and not. Whatever comes back: no 5xx, a message with every 4xx, no 2xx on a call that writes,
// and not one row changed in any table (a checksum of every table before and after each route).
// Left out of the checksum, by design: the sessions the fuzzer opens itself (auth_*) and the
// rate-limit counters, which count attempts whatever their body.

const UNCHECKED_TABLES = new Set(['auth_families', 'auth_tokens', 'rate_limits']);
// Calls that take no input and act on the caller's own sign-in: signed in, any body is a valid call
// (logout ends the session and logs it), so they are fuzzed signed out only.
/** Calls in flight at once. */
const PARALLEL = 4;

const ACTS_ON_SESSION = new Set(['POST /authentication/logout']);

let server: TestServer;
let sessionFor: Awaited<ReturnType<typeof roleUsers>>;
let tables: string[];
let content: { pid: number; body: unknown; session: Awaited<ReturnType<TestServer['as']>> };

async function tableNames(): Promise<string[]> {
  const q =
    server.app.dialect === 'postgres'
      ? sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`
      : sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  return (await q.execute(server.app.db)).rows.map((r) => r.name).filter((n) => !UNCHECKED_TABLES.has(n));
}

/** One hash per table over its rows, in a stable order. */
async function checksums(): Promise<Record<string, string>> {
  const hashes = await Promise.all(
    tables.map(async (t) => {
      const rows = (await sql`select * from ${sql.table(t)}`.execute(server.app.db)).rows;
      const lines = rows
        .map((r) => JSON.stringify(r, (_k, val) => (typeof val === 'bigint' ? String(val) : val)))
        .sort();
      return [t, crypto.createHash('sha256').update(lines.join('\n')).digest('hex')] as const;
    }),
  );
  return Object.fromEntries(hashes);
}

beforeAll(async () => {
  server = await startServer();
  sessionFor = await roleUsers(server);
  // Objects for the generated ids to hit: id 1 of users, organizations, a project with content.
  const admin = await server.as(Role.Administrator);
  // A target project, so that the complete content with its portrait is saved (the mutations below
  // must be refused for what they change, not for a portrait a default project may not have).
  const pid = await insertProject(server, admin.user.organization!.id, { type: ProjectType.Target });
  const saved = completeContent(true);
  const first = await saveProject(server, admin, pid, saved, 0);
  if (first.status !== 200) throw new Error(`the fuzzer's questionnaire was refused: ${first.body.message}`);
  content = { pid, body: saved, session: admin };
  await server.call('POST', '/tariffs', { session: admin, body: { name: 'Fuzz tariff', discount: 5 } });
  tables = await tableNames();
});
afterAll(async () => server?.close());

interface Case {
  label: string;
  path: string;
  body?: unknown;
  raw?: { text: string; type: string };
}

function casesFor(route: RouteEntry): Case[] {
  const doc = ROUTE_DOCS[routeKey(route)];
  const path = concretePath(route);
  const cases: Case[] = [];
  for (const q of badQueries(doc?.query)) cases.push({ label: `query ${q.slice(0, 60)}`, path: path + q });
  if (route.method === 'GET') return cases;
  for (const raw of RAW_BODIES)
    cases.push({ label: `raw ${raw.type} ${JSON.stringify(raw.text.slice(0, 30))}`, path, raw });
  const base = baseOf(doc?.body);
  cases.push({ label: 'extra field', path, body: { ...base, zzUnknownField: 1 } });
  // Issue 26: nesting 50 000 deep, a 1 MB string, a 100 000-element array.
  for (const c of sizeCases(
    base,
    fieldsOf(doc?.body).map((f) => f.name),
  ))
    cases.push({ path, ...c });
  for (const f of allFieldsOf(doc?.body)) {
    const name = f.path.join('.');
    if (f.required) cases.push({ label: `${name} missing`, path, body: withValue(base, f.path, REMOVE) });
    for (const bad of badValues(f.kind)) {
      const shown =
        typeof bad === 'string' ? JSON.stringify(bad.slice(0, 20)) : JSON.stringify(bad)?.slice(0, 30);
      cases.push({ label: `${name} = ${shown}`, path, body: withValue(base, f.path, bad) });
    }
  }
  return cases;
}

it('answers every generated bad input with a 4xx and a message, never a 5xx, and changes no row', async () => {
  const problems: string[] = [];
  let calls = 0;
  let fiveHundreds = 0;
  const routes = server.app.routeTable;
  for (const route of routes) {
    const key = routeKey(route);
    const access = ACCESS[key];
    const admitted = access ? admittedRoles(access) : null;
    // Signed in as a role that gets past the role check (the Administrator when admitted), and not
    // signed in; a refused role too, with the first few cases.
    const callers: { role: RoleId | null; all: boolean }[] = [];
    if (admitted === null) {
      callers.push({ role: null, all: true });
      if (!ACTS_ON_SESSION.has(key)) callers.push({ role: Role.Administrator, all: false });
    } else {
      callers.push({
        role: admitted.includes(Role.Administrator) ? Role.Administrator : admitted[0],
        all: true,
      });
      callers.push({ role: null, all: false });
      const refused = Object.values(Role).find((r) => !admitted.includes(r));
      if (refused) callers.push({ role: refused, all: false });
    }
    const cases = casesFor(route);
    const before = await checksums();
    for (const caller of callers) {
      const session = await sessionFor(caller.role);
      const mine = caller.all ? cases : cases.slice(0, 4);
      // A few calls at a time: the server answers them concurrently, as it would real callers.
      for (let at = 0; at < mine.length; at += PARALLEL) {
        // The per-address limits of the public calls would otherwise answer 429 before the body is read.
        if (admitted === null) await server.app.db.deleteFrom('rate_limits').execute();
        const batch = mine.slice(at, at + PARALLEL);
        const answers = await Promise.all(
          batch.map((c) =>
            server.call(route.method, c.path, {
              session,
              ...(c.raw
                ? { rawBody: c.raw.text, headers: { 'content-type': c.raw.type } }
                : c.body !== undefined
                  ? { body: c.body }
                  : {}),
            }),
          ),
        );
        answers.forEach((res, n) => {
          calls++;
          const where = `${key} as ${roleName(caller.role)}, ${batch[n].label}`;
          if (res.status >= 500) {
            fiveHundreds++;
            problems.push(`${where}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          } else if (res.status >= 400) {
            if (typeof res.body?.message !== 'string' || res.body.message === '')
              problems.push(`${where}: ${res.status} without a message`);
          } else if (route.method !== 'GET' && res.status !== 204) {
            problems.push(`${where}: accepted (${res.status}) ${JSON.stringify(res.body).slice(0, 120)}`);
          }
        });
      }
    }
    const after = await checksums();
    const changed = tables.filter((t) => before[t] !== after[t]);
    if (changed.length) problems.push(`${key}: rows changed in ${changed.join(', ')}`);
  }
  console.log(
    `fuzzer (${server.app.dialect}): ${routes.length} routes, ${calls} cases, ${fiveHundreds} × 5xx, ${problems.length} problems`,
  );
  expect(problems).toEqual([]);
}, 240_000);

/** Every place in a JSON tree, with the value found there. */
function places(
  node: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; value: unknown }[] {
  const here = path.length ? [{ path, value: node }] : [];
  if (Array.isArray(node)) return [...here, ...node.flatMap((x, i) => places(x, [...path, i]))];
  if (node && typeof node === 'object')
    return [...here, ...Object.entries(node).flatMap(([k, x]) => places(x, [...path, k]))];
  return here;
}

/** A value the content schema refuses wherever `current` stands. */
function badFor(current: unknown): fc.Arbitrary<unknown> {
  const control = fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom('\u0000', '\u0002', '\u001b', '\u007f'))
    .map(([a, c]) => a + c + a);
  if (typeof current === 'string')
    return fc.oneof(control, fc.constant('x'.repeat(20_001)), fc.constant(2 ** 31));
  if (typeof current === 'number') return fc.oneof(fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e308), control);
  if (typeof current === 'boolean') return fc.constantFrom('true', 1, [true]);
  if (Array.isArray(current)) return fc.constantFrom({ a: 1 }, 'x', 2 ** 31);
  // An unknown key beside the known ones (issue 26: content is strict).
  if (current && typeof current === 'object')
    return fc.constantFrom([], [current], 'x', 2 ** 31, { ...current, zzUnknownKey: 1 });
  return fc.constantFrom(2 ** 31, 1e308, { a: [] });
}

it('refuses deep mutations of a saved questionnaire (property-based), keeping it unchanged', async () => {
  const all = places(content.body);
  const version = (
    await server.call('GET', `/project?pid=${content.pid}`, { session: content.session })
  ).headers.get('etag')!;
  const before = await checksums();
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...all).chain((p) => fc.tuple(fc.constant(p), badFor(p.value))),
      async ([place, bad]) => {
        runs++;
        const body = withValue(content.body, place.path.map(String), bad);
        const res = await server.call('POST', '/project', {
          session: content.session,
          body: { pid: content.pid, content: body },
          headers: { 'if-match': version },
        });
        const where = `${place.path.join('.')} = ${JSON.stringify(bad)?.slice(0, 40)}`;
        expect(res.status, where).toBeGreaterThanOrEqual(400);
        expect(res.status, where).toBeLessThan(500);
        expect(typeof res.body.message, where).toBe('string');
      },
    ),
    { numRuns: 150, seed: 1717 },
  );
  // Issue 26: an unknown key on every object of the content, one at a time, is named by its path.
  const objects = [{ path: [], value: content.body }, ...all].filter(
    (p) => p.value && typeof p.value === 'object' && !Array.isArray(p.value),
  );
  for (const place of objects) {
    const path = [...place.path.map(String), 'zzUnknownKey'];
    const res = await server.call('POST', '/project', {
      session: content.session,
      body: { pid: content.pid, content: withValue(content.body, path, 1) },
      headers: { 'if-match': version },
    });
    const shown = ['content', ...path].join('.').replace(/\.(\d+)/g, '[$1]');
    expect(res.status, shown).toBe(400);
    expect(res.body.message, shown).toBe(`${shown}: Unknown field`);
  }
  expect(await checksums()).toEqual(before);
  console.log(
    `fuzzer (${server.app.dialect}): ${all.length} places in the content, ${runs} deep mutations, ` +
      `${objects.length} unknown keys, 0 × 5xx`,
  );
}, 120_000);
