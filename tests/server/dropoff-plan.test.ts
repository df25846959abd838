import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { startServer, type TestServer } from './helpers';
import { dropOffSqliteQueries } from '../../server/reports/dropoff';
import type { ReportFilters } from '../../src/domain/reports';

// The drop-off's cost on SQLite, decided without a clock: every one of its queries walks one index
// range, in the order of what it groups, and never sorts or reads the rows (migration 019). A sort
// over 100 000 respondents is what took it over its 100 ms budget; a changed expression that no
// longer matches its index would bring the sort back silently, and the brute-force tests would still
// pass. (The counts themselves: stats.test.ts, against a brute-force count.)

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const FILTERS: ReportFilters[] = [
  {},
  { gender: 'female' },
  { city: 'Москва' },
  { ageMin: 25, ageMax: 40 },
  { city: 'Казань', ageMin: 25, ageMax: 40, education: 'higher', portrait: 'p1' },
  // The language is checked in the entries too (026), never through a list of its respondents' ids.
  { language: 'en' },
  { city: 'Москва', gender: 'female', language: 'en' },
];

describe.skipIf(!!process.env.TEST_DATABASE_URL)('the drop-off on SQLite', () => {
  it('reads each count from one index range in group order, whatever the filters', async () => {
    for (const f of FILTERS)
      for (const [name, query] of Object.entries(dropOffSqliteQueries(1, f))) {
        const c = query.compile(server.app.db);
        const plan = await server.app.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]),
        );
        const steps = plan.rows.map((r) => r.detail);
        const where = `${name} with ${JSON.stringify(f)}: ${steps.join(' | ')}`;
        expect(steps, where).toHaveLength(1);
        expect(steps[0], where).toMatch(
          /^SEARCH respondents USING (COVERING )?INDEX respondents_\w+ \(project_id=\?( AND status=\?)?\)$/,
        );
      }
  });
});
