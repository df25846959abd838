import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';
import { bigInt, withId } from './helpers';

// Issue 24, parts 2 and 3: a game player's record (one per game and SDK player id) that answers to
// questions with writeToDb fill, its free-named fields, and the per-day count of SDK calls answered
// with a survey (what a game was offered; started/completed/screened out come from respondents).
// Everything of a game goes with it (cascade).
export function migration(dialect: Dialect) {
  const ts = bigInt(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('game_players'), dialect)
        .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
        .addColumn('player_id', 'text', (c) => c.notNull())
        /** The four mapped fields, checked against GET /target-fields' values (null: not known). */
        .addColumn('gender', 'text')
        .addColumn('age', 'integer')
        .addColumn('city', 'text')
        .addColumn('region', 'text')
        .addColumn('education', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addUniqueConstraint('game_players_game_player', ['game_id', 'player_id'])
        .execute();
      await db.schema
        .createTable('game_player_fields')
        .addColumn('game_player_id', 'integer', (c) =>
          c.notNull().references('game_players.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('game_player_fields_pk', ['game_player_id', 'name'])
        .execute();
      await db.schema
        .createTable('game_offers_daily')
        .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
        /** Days since 1970-01-01, UTC (unix ms ÷ 86 400 000). */
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('offered', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('game_offers_daily_pk', ['game_id', 'day'])
        .execute();
      // The stats' and the erasure's reads: a game's respondents by time, and by player.
      await sql`create index respondents_game_started on respondents (game_id, started_at) where game_id is not null`.execute(
        db,
      );
      await sql`create index respondents_game_player on respondents (game_id, player_id) where player_id is not null`.execute(
        db,
      );
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index respondents_game_player`.execute(db);
      await sql`drop index respondents_game_started`.execute(db);
      await db.schema.dropTable('game_offers_daily').execute();
      await db.schema.dropTable('game_player_fields').execute();
      await db.schema.dropTable('game_players').execute();
    },
  };
}
