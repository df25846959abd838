import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';

// A questionnaire in several languages on the real server (issue 32), SQLite or PostgreSQL: content
// written before reads unchanged; the save refuses an unknown code, a duplicate, a translation into
// a language not listed and the removal of the source language, each with a translated 400 and
// nothing written; sending for moderation is refused while a translation is missing, with the
// problem list's message, and goes through once it is there.

let server: TestServer;
let org: number;
let researcher: Session;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization();
  researcher = await server.as(Role.Researcher, { organizationId: org });
});
afterAll(async () => server?.close());

/** complete content in Russian and English, every text translated. */
function bilingual(): ProjectContent {
  const c = completeContent();
  c.languages = ['ru', 'en'];
  const [q1, q2] = c.questionnaires[0].blocks[0].questions;
  q1.translations = { en: { text: 'How old are you? (en)' } };
  q1.answers[0].translations = { en: { text: 'Under 18 (en)' } };
  q1.answers[1].translations = { en: { text: '18 or more (en)' } };
  q2.translations = { en: { text: 'Anything else? (en)' } };
  return c;
}

async function versionOf(pid: number) {
  return (await getProject(server, researcher, pid)).body.version as number;
}

describe('saving content in several languages', () => {
  it('reads content written before languages unchanged, with no languages key', async () => {
    const pid = await insertProject(server, org);
    const old = completeContent();
    expect((await saveProject(server, researcher, pid, old, 0)).status).toBe(200);
    const back = await getProject(server, researcher, pid);
    expect(back.body.content).toEqual(old);
    expect('languages' in back.body.content).toBe(false);
  });

  it('stores the languages and the translations and gives them back', async () => {
    const pid = await insertProject(server, org);
    const c = bilingual();
    const res = await saveProject(server, researcher, pid, c, 0);
    expect(res.status).toBe(200);
    expect(res.body.problems).toEqual([]);
    expect((await getProject(server, researcher, pid)).body.content).toEqual(c);
  });

  it('refuses an unknown code, a duplicate and a translation into a language not listed, in the caller’s language', async () => {
    const pid = await insertProject(server, org);
    const unknown = { ...bilingual(), languages: ['ru', 'xx'] };
    const a = await saveProject(server, researcher, pid, unknown, 0);
    expect(a.status).toBe(400);
    expect(a.body.field).toBe('content.languages.1');
    expect(a.body.message).toBe('content.languages[1]: Unknown language code');

    const twice = { ...bilingual(), languages: ['ru', 'en', 'en'] };
    const b = await server.call('POST', '/project', {
      session: researcher,
      body: { pid, content: twice },
      headers: { 'if-match': '"0"' },
      locale: 'ru',
    });
    expect(b.status).toBe(400);
    expect(b.body.message).toBe('content.languages[2]: Язык указан дважды');

    const notListed = bilingual();
    notListed.questionnaires[0].blocks[0].questions[0].answers[0].translations = { de: { text: 'Unter 18' } };
    const c = await saveProject(server, researcher, pid, notListed, 0);
    expect(c.status).toBe(400);
    expect(c.body.field).toBe('content.questionnaires.0.blocks.0.questions.0.answers.0.translations.de');
    expect(c.body.message).toMatch(/a language the questionnaire does not list/);

    expect(await versionOf(pid)).toBe(0);
  });

  it('refuses removing or replacing the source language of content with questions, writing nothing', async () => {
    const pid = await insertProject(server, org);
    expect((await saveProject(server, researcher, pid, bilingual(), 0)).status).toBe(200);
    const english = { ...bilingual(), languages: ['en'] };
    for (const q of english.questionnaires[0].blocks[0].questions) {
      delete q.translations;
      for (const a of q.answers) delete a.translations;
    }
    for (const content of [english, { ...bilingual(), languages: ['de', 'ru', 'en'] }]) {
      const res = await saveProject(server, researcher, pid, content, 1);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('source-language');
      expect(res.body.field).toBe('content.languages');
      expect(res.body.message).toBe(
        "content.languages: The questionnaire's source language cannot be removed or replaced",
      );
    }
    expect(await versionOf(pid)).toBe(1);
    // Removing another language (and its texts) is an ordinary edit.
    const russian = completeContent();
    const stored = (await getProject(server, researcher, pid)).body.content as ProjectContent;
    russian.questionnaires = stored.questionnaires.map((qn) => ({
      ...qn,
      blocks: qn.blocks.map((b) => ({
        ...b,
        questions: b.questions.map(({ translations: _t, ...q }) => ({
          ...q,
          answers: q.answers.map(({ translations: _a, ...a }) => a),
        })),
      })),
    }));
    expect((await saveProject(server, researcher, pid, russian, 1)).status).toBe(200);
  });

  it('lets empty content choose its source language', async () => {
    const pid = await insertProject(server, org);
    const c = completeContent();
    c.languages = ['en', 'ru'];
    expect((await saveProject(server, researcher, pid, c, 0)).status).toBe(200);
  });

  it('saves a draft with a missing translation and lists the problem', async () => {
    const pid = await insertProject(server, org);
    const c = bilingual();
    delete c.questionnaires[0].blocks[0].questions[1].translations;
    const res = await saveProject(server, researcher, pid, c, 0);
    expect(res.status).toBe(200);
    expect(res.body.problems).toEqual([
      {
        rule: 'translationMissing',
        code: null,
        severity: 'incomplete',
        path: 'questionnaires.0.blocks.0.questions.1',
        params: { number: 2, language: 'en' },
      },
    ]);
  });
});

describe('sending for moderation', () => {
  it('is refused while a translation is missing, with the problem list’s message, and works once it is there', async () => {
    const pid = await insertProject(server, org);
    const c = bilingual();
    delete c.questionnaires[0].blocks[0].questions[1].translations;
    expect((await saveProject(server, researcher, pid, c, 0)).status).toBe(200);
    const send = (locale: 'en' | 'ru' = 'en') =>
      server.call('POST', '/project/status', {
        session: researcher,
        body: { pid, status: ProjectStatus.OnModeration },
        locale,
      });
    const refused = await send();
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('translationMissing');
    expect(refused.body.message).toBe('Question 2 has no English text');
    expect(refused.body.field).toBe('questionnaires.0.blocks.0.questions.1');
    expect((await send('ru')).body.message).toBe('У вопроса 2 нет текста на языке «английский»');

    expect((await saveProject(server, researcher, pid, bilingual(), 1)).status).toBe(200);
    const sent = await send();
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe(ProjectStatus.OnModeration);
  });
});
