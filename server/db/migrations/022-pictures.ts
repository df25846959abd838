import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// Pictures in the database (issue 33): the bytes of each uploaded picture beside its row, so that
// every server process serves every picture. Rows written before keep a null until the process
// that holds the file under DATA_DIR/uploads moves it in at start (server/pictures/move-in.ts).
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('pictures')
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob')
        .execute();
      // Pictures are compressed already: PostgreSQL need not try to compress them again (it would
      // spend the time on every write and keep them as they are); they are still kept out of line.
      if (dialect === 'postgres')
        await sql`alter table pictures alter column bytes set storage external`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('pictures').dropColumn('bytes').execute();
    },
  };
}
