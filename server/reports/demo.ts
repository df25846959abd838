import type { Db } from '../db';
import { hashPassword } from '../auth/password';
import { writeContent } from '../repos/content';
import { setTargetPlatforms } from '../repos/projects';
import { Role, UserStatus } from '../../src/domain/roles';
import { ProjectStatus, ProjectType } from '../../src/domain/projects';
import { recordRespondent } from '../survey/respond';
import { searchCities } from '../data/cities';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import type { Page, Reply } from '../../src/domain/flow';
import type { Attributes } from '../../src/domain/flow/attributes';
import { sampleContent, seeded, SAMPLE_PLACES, type Random } from './sample';

// `npm run demo` (scripts/demo.ts): a living example in the configured database. A demo
// organization, a researcher in it, a target project on rotation whose questionnaire uses every
// question category, two portraits with quotas, and DEMO_RESPONDENTS respondents with realistic
// attributes (city, region, age, gender, education, portrait) and answers, recorded one by one
// through the runner's recordRespondent (the code behind the survey page's calls). Everything is
// found by its name or email first, so a second run changes nothing and only tops up missing
// respondents.

export const DEMO_ORGANIZATION = 'Демо-студия «Полярная звезда»';
export const DEMO_EMAIL = 'demo.researcher@example.com';
export const DEMO_PASSWORD = 'demo-report1';
export const DEMO_PROJECT = 'Демо: игроки о мобильных играх';
export const DEMO_RESPONDENTS = 10_000;
/** Respondents recorded at the same time (the PostgreSQL pool has 10 connections). */
export const DEMO_CONCURRENCY = 8;

export interface DemoResult {
  email: string;
  password: string;
  projectId: number;
  created: { organization: boolean; user: boolean; project: boolean; respondents: number };
}

export async function seedDemo(
  db: Db,
  opts: {
    scryptLogN: number;
    respondents?: number;
    concurrency?: number;
    log?: (line: string) => void;
  } = { scryptLogN: 17 },
): Promise<DemoResult> {
  const log = opts.log ?? (() => {});
  const wanted = opts.respondents ?? DEMO_RESPONDENTS;
  const now = Date.now();
  const created = { organization: false, user: false, project: false, respondents: 0 };

  let org = await db
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', DEMO_ORGANIZATION)
    .executeTakeFirst();
  if (!org) {
    org = await db
      .insertInto('organizations')
      .values({ name: DEMO_ORGANIZATION, type: 1, category_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    created.organization = true;
  }

  const user = await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  let userId = user?.id;
  if (!userId) {
    const row = await db
      .insertInto('users')
      .values({
        email: DEMO_EMAIL,
        fullname: 'Анна Демонстрационная',
        role_id: Role.Researcher,
        status_id: UserStatus.Activated,
        organization_id: org.id,
        category_id: null,
        password_hash: await hashPassword(DEMO_PASSWORD, opts.scryptLogN),
        locale: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = row.id;
    created.user = true;
  }

  let project = await db
    .selectFrom('projects')
    .select('id')
    .where('organization_id', '=', org.id)
    .where('name', '=', DEMO_PROJECT)
    .executeTakeFirst();
  if (!project) {
    project = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          name: DEMO_PROJECT,
          search_name: DEMO_PROJECT.toLowerCase(),
          priority: 10,
          organization_id: org.id,
          template: 'target',
          type: ProjectType.Target,
          status: ProjectStatus.OnRotation,
          link_token: null,
          created_by: userId,
          created_at: now,
          updated_at: now,
          status_changed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setTargetPlatforms(trx, row.id, [1, 4, 6]);
      return row;
    });
    const written = await writeContent(db, project.id, 0, sampleContent(), userId);
    if (written !== 1) throw new Error('the demo project content could not be written');
    created.project = true;
  }

  const have = await db
    .selectFrom('respondents')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('project_id', '=', project.id)
    .executeTakeFirstOrThrow();
  const missing = wanted - Number(have.n);
  if (missing > 0) {
    // Through the runner's own code path (server/survey/respond.ts): the flow decides the pages,
    // the answers are checked and stored as real answers are, quotas counted in the same transaction.
    const r = seeded(20_260_000 + Number(have.n));
    const places = demoPlaces();
    const base = Date.now();
    // Several respondents answer at once, as they would on a live survey: on PostgreSQL their
    // transactions run side by side on the pool's connections (SQLite takes them one at a time).
    // A slot is taken before a respondent starts and given back when his portrait was full, so
    // exactly `missing` are added.
    let added = 0;
    let taken = 0;
    let tries = 0;
    const worker = async () => {
      while (taken < missing && tries < missing * 2) {
        taken++;
        tries++;
        const kind = demoKind(r);
        const res = await recordRespondent(db, {
          projectId: project.id,
          source: 'demo',
          locale: 'ru',
          attributes: demoAttributes(r, places),
          pick: (page) => demoReply(r, page, kind),
          // Realistic page times (and so durations), a few speeders among them (issue 31).
          pageMs: (page) => demoPageMs(r, page, kind),
          now: base - Math.floor(r() * 14 * 24 * 3600 * 1000),
        });
        if (res.status === 'quotaFull') {
          taken--;
          continue;
        }
        added++;
        if (added % 500 === 0 || added === missing)
          log(`  respondents: ${Number(have.n) + added} / ${wanted}`);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency ?? DEMO_CONCURRENCY }, worker));
    created.respondents = added;
  }

  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, created };
}

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];

/** The sample's big cities as ids of GET /cities, weighted by population. */
function demoPlaces(): string[] {
  return SAMPLE_PLACES.flatMap((p) => {
    const [city] = searchCities({ search: p.city, limit: 1, locale: 'ru' });
    return city ? Array<string>(p.weight).fill(city.id) : [];
  });
}

function demoAttributes(r: Random, places: string[]): Attributes {
  return {
    gender: r() < 0.52 ? 'female' : 'male',
    age: Math.min(70, 14 + Math.floor(-Math.log(1 - r()) * 14)),
    city: pick(r, places),
    education: pick(r, [...EDUCATION_LEVELS, 'secondary', 'higher', 'vocational'] as const),
    platform: pick(r, ['android', 'ios', 'web']),
  };
}

// The sample's cities looked up once: a lookup searches every city, and a place is picked for
// every respondent (it was a tenth of the seeding's time).
let cities: ReturnType<typeof searchCities> | null = null;
const sampleCities = () =>
  (cities ??= SAMPLE_PLACES.map((p) => searchCities({ search: p.city, limit: 1, locale: 'ru' })[0]));

const OPEN_TEXTS = [
  'Больше уровней',
  'Меньше рекламы',
  'Играть с друзьями',
  'Всё нравится',
  'Ночной режим',
  'Сделать донат дешевле',
  'Добавить кооператив',
  'Исправить вылеты на старых телефонах',
  'Больше сюжетных заданий',
  'нет',
];
/** What a careless respondent types (the gibberish detector's kind of text). */
const JUNK_TEXTS = ['фывапролдж', 'asdasdasd', 'ааааааа', '.', 'jfkdls', 'йцукен', 'ghbdtn'];

/**
 * The demo's respondents: most answer with care; a few rush through (speeders), answer every row of
 * the matrix the same (straight-liners) or type junk (gibberish), so the quality card has something
 * to show.
 */
export type DemoKind = 'careful' | 'speeder' | 'straight' | 'junk';
export function demoKind(r: Random): DemoKind {
  const x = r();
  return x < 0.03 ? 'speeder' : x < 0.05 ? 'straight' : x < 0.07 ? 'junk' : 'careful';
}

/** Milliseconds on a page: what reading and answering it takes, by category, with a person's spread. */
export function demoPageMs(r: Random, page: Page, kind: DemoKind = 'careful'): number {
  if (kind === 'speeder') return 800 + r() * 1700;
  const q = page.question;
  const base: Record<string, number> = {
    screening: 5,
    oneAnswer: 6,
    qualification: 6,
    fewAnswers: 10,
    fromTo: 6,
    open: 30,
    starRating: 4,
    slider: 5,
    nps: 5,
    sortable: 18,
    matrix: 20,
    regionAuto: 8,
    cityAuto: 8,
  };
  // Log-normal: most near the base, some much slower (a notification, a second thought).
  const spread = Math.exp((r() + r() + r() - 1.5) * 0.8);
  return Math.round((base[q.category] ?? 6) * 1000 * spread);
}

/** A plausible answer to the page the flow shows, as a respondent of this kind gives it. */
export function demoReply(r: Random, page: Page, kind: DemoKind = 'careful'): Reply {
  const q = page.question;
  if (kind === 'straight' && q.category === 'matrix')
    return { cells: Object.fromEntries(page.statements.map((s) => [s.id, page.answers[0].id])) };
  if (kind === 'junk' && q.category === 'open') return { text: pick(r, JUNK_TEXTS) };
  switch (q.category) {
    case 'screening': {
      const deny = page.answers.filter((a) => a.screening === 'deny');
      const allow = page.answers.filter((a) => a.screening !== 'deny');
      return { answers: [pick(r, deny.length > 0 && r() < 0.1 ? deny : allow).id] };
    }
    case 'oneAnswer':
    case 'qualification':
      if (q.other !== null && r() < 0.08) return { answers: [], other: pick(r, ['Гонки', 'Симуляторы']) };
      return { answers: [pick(r, page.answers).id] };
    case 'fewAnswers': {
      const picked = page.answers.filter(() => r() < 0.45).map((a) => a.id);
      return { answers: picked.length > 0 ? picked : [page.answers[0].id] };
    }
    case 'fromTo':
      return { value: Math.min(q.scale?.max ?? 40, Math.round(-Math.log(1 - r()) * 8)) };
    case 'slider':
      return { value: Math.floor(r() * 21) / 2 };
    case 'nps':
      return { value: Math.min(10, 3 + Math.floor(r() * 8) + (r() < 0.3 ? 1 : 0)) };
    case 'starRating':
      return { value: Math.min(q.stars ?? 5, (r() < 0.7 ? 3 : 1) + Math.floor(r() * 3)) };
    case 'open':
      return { text: pick(r, OPEN_TEXTS) };
    case 'sortable':
      return { answers: [...page.answers].sort(() => r() - 0.5).map((a) => a.id) };
    case 'matrix':
      return { cells: Object.fromEntries(page.statements.map((s) => [s.id, pick(r, page.answers).id])) };
    case 'regionAuto':
    case 'cityAuto': {
      const city = pick(r, sampleCities());
      return { text: q.category === 'cityAuto' ? city.id : city.region.id };
    }
  }
}
