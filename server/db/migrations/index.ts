import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { migration as m001 } from './001-core';
import { migration as m002 } from './002-projects';
import { migration as m003 } from './003-people';
import { migration as m005 } from './005-projects-extra';
import { migration as m004 } from './004-games-pricing';
import { migration as m006 } from './006-content';
import { migration as m007 } from './007-responses';
import { migration as m008 } from './008-content-version-summary';
import { migration as m009 } from './009-report-index';
import { migration as m010 } from './010-report-counters';
import { migration as m011 } from './011-report-counters-people';
import { migration as m012 } from './012-report-statistics';
import { migration as m013 } from './013-report-city-counts';
import { migration as m014 } from './014-report-text-index';
import { migration as m015 } from './015-callbacks';
import { migration as m016 } from './016-players';
import { migration as m017 } from './017-auth-epoch';
import { migration as m018 } from './018-respondent-last-question';
import { migration as m019 } from './019-dropoff-indexes';
import { migration as m020 } from './020-responses';
import { migration as m021 } from './021-languages';
import { migration as m022 } from './022-pictures';
import { migration as m023 } from './023-last-question-in-progress';
import { migration as m024 } from './024-counters-language';
import { migration as m025 } from './025-responses-text-search';
import { migration as m026 } from './026-report-language-indexes';

// Every migration, registered by name in order (never scanned from disk). Each is a factory taking
// the dialect, so one migration serves SQLite and PostgreSQL. Add new ones at the end.
const factories: Record<string, (dialect: Dialect) => Migration> = {
  '001-core': m001,
  '002-projects': m002,
  '003-people': m003,
  '004-games-pricing': m004,
  '005-projects-extra': m005,
  '006-content': m006,
  '007-responses': m007,
  '008-content-version-summary': m008,
  '009-report-index': m009,
  '010-report-counters': m010,
  '011-report-counters-people': m011,
  '012-report-statistics': m012,
  '013-report-city-counts': m013,
  '014-report-text-index': m014,
  '015-callbacks': m015,
  '016-players': m016,
  '017-auth-epoch': m017,
  '018-respondent-last-question': m018,
  '019-dropoff-indexes': m019,
  '020-responses': m020,
  '021-languages': m021,
  '022-pictures': m022,
  '023-last-question-in-progress': m023,
  '024-counters-language': m024,
  '025-responses-text-search': m025,
  '026-report-language-indexes': m026,
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(Object.entries(factories).map(([name, f]) => [name, f(dialect)]));
}

/** The names of every migration this release knows, in order (readiness checks they are applied). */
export const migrationNames = (): string[] => Object.keys(factories);
