import type { Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';

// The game registry (games and their genre, platform and currency lookups), tariffs and the
// calculator's settings. Lookups are seeded with real values; the settings with a starting price
// list that the Administrator is expected to change (docs/decisions/games-pricing.md).

/** [English, Russian] */
export const SEED_GENRES: readonly [string, string][] = [
  ['Action', 'Экшен'],
  ['Adventure', 'Приключения'],
  ['Arcade', 'Аркада'],
  ['Board', 'Настольная'],
  ['Card', 'Карточная'],
  ['Casino', 'Казино'],
  ['Casual', 'Казуальная'],
  ['Educational', 'Обучающая'],
  ['Fighting', 'Файтинг'],
  ['Horror', 'Хоррор'],
  ['Hyper-casual', 'Гиперказуальная'],
  ['Idle', 'Idle-кликер'],
  ['Match-3', 'Три в ряд'],
  ['MMO', 'MMO'],
  ['Music', 'Музыкальная'],
  ['Platformer', 'Платформер'],
  ['Puzzle', 'Головоломка'],
  ['Racing', 'Гонки'],
  ['RPG', 'Ролевая'],
  ['Shooter', 'Шутер'],
  ['Simulation', 'Симулятор'],
  ['Sports', 'Спортивная'],
  ['Strategy', 'Стратегия'],
  ['Trivia', 'Викторина'],
  ['Word', 'Словесная'],
];

export const SEED_PLATFORMS: readonly [string, string][] = [
  ['Android', 'Android'],
  ['iOS', 'iOS'],
  ['Web', 'Веб'],
  ['Windows', 'Windows'],
  ['macOS', 'macOS'],
  ['Linux', 'Linux'],
  ['VK Play', 'VK Play'],
  ['VK Mini Apps', 'VK Mini Apps'],
  ['Odnoklassniki', 'Одноклассники'],
  ['Yandex Games', 'Яндекс Игры'],
  ['RuStore', 'RuStore'],
  ['Steam', 'Steam'],
  ['PlayStation', 'PlayStation'],
  ['Xbox', 'Xbox'],
  ['Nintendo Switch', 'Nintendo Switch'],
];

/** ISO 4217 codes of the markets the platform serves first. */
export const SEED_CURRENCIES = [
  'RUB',
  'USD',
  'EUR',
  'BYN',
  'KZT',
  'UZS',
  'KGS',
  'AMD',
  'AZN',
  'GEL',
  'TJS',
  'MDL',
  'UAH',
  'CNY',
  'TRY',
  'AED',
  'INR',
  'GBP',
  'JPY',
  'KRW',
  'BRL',
];

const SEED_SETTINGS = [
  {
    audience: 'researchers',
    vk_percent: 10,
    base_price: 5000,
    question_surcharge: 500,
    question_step: 10,
    block_surcharge: 300,
    block_progressive: 50,
    screening_price: 200,
    target_filter_surcharge: 5,
    filled_block_price: 3,
    completed_survey_price: 30,
  },
  {
    audience: 'issuers',
    vk_percent: 10,
    base_price: 2000,
    question_surcharge: 200,
    question_step: 10,
    block_surcharge: 100,
    block_progressive: 20,
    screening_price: 100,
    target_filter_surcharge: 2,
    filled_block_price: 1,
    completed_survey_price: 10,
  },
];

export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['game_genres', 'game_platforms']) {
        await withId(db.schema.createTable(table), dialect)
          .addColumn('name_ru', 'text', (c) => c.notNull())
          .addColumn('name_en', 'text', (c) => c.notNull())
          .addColumn('norm_ru', 'text', (c) => c.notNull().unique())
          .addColumn('norm_en', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', ts, (c) => c.notNull())
          .execute();
      }
      await withId(db.schema.createTable('game_currencies'), dialect)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .execute();
      await withId(db.schema.createTable('games'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_norm', 'text', (c) => c.notNull())
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('genre_id', 'integer', (c) => c.notNull().references('game_genres.id'))
        .addColumn('platform_id', 'integer', (c) => c.notNull().references('game_platforms.id'))
        .addColumn('currency_id', 'integer', (c) => c.notNull().references('game_currencies.id'))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('api_key_prefix', 'text', (c) => c.notNull())
        .addColumn('api_key_suffix', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('token_prefix', 'text', (c) => c.notNull())
        .addColumn('token_suffix', 'text', (c) => c.notNull())
        .addColumn('sdk_connected_at', ts)
        .addColumn('last_sdk_at', ts)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('games_org_name_idx')
        .on('games')
        .columns(['organization_id', 'name_norm'])
        .unique()
        .execute();
      await db.schema.createIndex('games_name_idx').on('games').columns(['name_norm', 'id']).execute();
      // Each sortable column gets an index so a page of a long list is read in order, not sorted whole.
      await db.schema.createIndex('games_created_idx').on('games').columns(['created_at', 'id']).execute();
      await db.schema
        .createIndex('games_org_created_idx')
        .on('games')
        .columns(['organization_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('games_status_idx').on('games').columns(['status', 'id']).execute();
      await db.schema.createIndex('games_url_idx').on('games').columns(['url', 'id']).execute();
      for (const col of ['genre_id', 'platform_id', 'currency_id']) {
        await db.schema.createIndex(`games_${col}_idx`).on('games').columns([col, 'id']).execute();
      }
      await withId(db.schema.createTable('tariffs'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_norm', 'text', (c) => c.notNull().unique())
        .addColumn('discount', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('tariffs_created_idx')
        .on('tariffs')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema.createIndex('tariffs_discount_idx').on('tariffs').columns(['discount', 'id']).execute();
      await db.schema
        .createTable('calculator_settings')
        .addColumn('audience', 'text', (c) => c.primaryKey())
        .addColumn('vk_percent', 'integer', (c) => c.notNull())
        .addColumn('base_price', 'integer', (c) => c.notNull())
        .addColumn('question_surcharge', 'integer', (c) => c.notNull())
        .addColumn('question_step', 'integer', (c) => c.notNull())
        .addColumn('block_surcharge', 'integer', (c) => c.notNull())
        .addColumn('block_progressive', 'integer', (c) => c.notNull())
        .addColumn('screening_price', 'integer', (c) => c.notNull())
        .addColumn('target_filter_surcharge', 'integer', (c) => c.notNull())
        .addColumn('filled_block_price', 'integer', (c) => c.notNull())
        .addColumn('completed_survey_price', 'integer', (c) => c.notNull())
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      const seedDb = db as Kysely<{
        game_genres: {
          name_ru: string;
          name_en: string;
          norm_ru: string;
          norm_en: string;
          created_at: number;
        };
        game_platforms: {
          name_ru: string;
          name_en: string;
          norm_ru: string;
          norm_en: string;
          created_at: number;
        };
        game_currencies: { code: string };
        calculator_settings: (typeof SEED_SETTINGS)[number] & {
          updated_by: number | null;
          updated_at: number;
        };
      }>;
      const now = Date.now();
      const lookupRows = (list: readonly [string, string][]) =>
        list.map(([en, ru]) => ({
          name_ru: ru,
          name_en: en,
          norm_ru: ru.toLowerCase(),
          norm_en: en.toLowerCase(),
          created_at: now,
        }));
      await seedDb.insertInto('game_genres').values(lookupRows(SEED_GENRES)).execute();
      await seedDb.insertInto('game_platforms').values(lookupRows(SEED_PLATFORMS)).execute();
      await seedDb
        .insertInto('game_currencies')
        .values(SEED_CURRENCIES.map((code) => ({ code })))
        .execute();
      await seedDb
        .insertInto('calculator_settings')
        .values(SEED_SETTINGS.map((s) => ({ ...s, updated_by: null, updated_at: now })))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of [
        'calculator_settings',
        'tariffs',
        'games',
        'game_currencies',
        'game_platforms',
        'game_genres',
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
