import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index';

// Issue 31, part 6: the respondents list's text search ("any written answer contains …") found its
// rows by reading every written answer of the project and folding each to lower case: 437 ms at
// 100 000 respondents for a word no one wrote (docs/decisions/responses.md). Both databases get an
// index of trigrams of the folded texts, which only narrows the rows: the list still keeps a row
// only when `lower(text) like '%term%'` holds, so what matches is exactly what matched before.
// - SQLite: an FTS5 table with the trigram tokenizer over lower(text), keyed by the answer row's id,
//   contentless (the texts are not stored twice; contentless_delete lets a row leave it), kept by
//   triggers. lower() is the Unicode one every connection of ours registers (server/db/index.ts).
//   A term folded the same way is a substring of a folded text only if its trigrams stand in a row
//   there, so the phrase query of its trigrams misses no row.
// - PostgreSQL: pg_trgm's GIN index on lower(text), which serves the same LIKE directly (PostgreSQL
//   rechecks every row it finds). pg_trgm ships with PostgreSQL (contrib) and is a trusted
//   extension, but a server without contrib or a role that may not create it leaves the index out:
//   the search then reads the rows as before, slower, with the same results.
export function migration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        // A failure inside the migration's transaction would abort it: tried under a savepoint.
        await sql`savepoint text_search`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`create index respondent_answers_text_trgm on respondent_answers
            using gin (lower(text) gin_trgm_ops) where text is not null`.execute(db);
          await sql`release savepoint text_search`.execute(db);
        } catch (err) {
          await sql`rollback to savepoint text_search`.execute(db);
          console.warn(
            `pg_trgm could not be used (${(err as Error).message}): the respondents' text search reads every written answer`,
          );
        }
        return;
      }
      await sql`create virtual table respondent_texts using fts5(
        text, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(db);
      await sql`insert into respondent_texts (rowid, text)
        select id, lower(text) from respondent_answers where text is not null`.execute(db);
      await sql`create trigger respondent_texts_insert after insert on respondent_answers
        when new.text is not null begin
          insert into respondent_texts (rowid, text) values (new.id, lower(new.text));
        end`.execute(db);
      await sql`create trigger respondent_texts_delete after delete on respondent_answers
        when old.text is not null begin
          delete from respondent_texts where rowid = old.id;
        end`.execute(db);
      await sql`create trigger respondent_texts_update after update of text on respondent_answers
        begin
          delete from respondent_texts where rowid = old.id and old.text is not null;
          insert into respondent_texts (rowid, text) select new.id, lower(new.text) where new.text is not null;
        end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop index if exists respondent_answers_text_trgm`.execute(db);
        return;
      }
      for (const t of ['insert', 'delete', 'update'])
        await sql`drop trigger ${sql.raw(`respondent_texts_${t}`)}`.execute(db);
      await sql`drop table respondent_texts`.execute(db);
    },
  };
}
