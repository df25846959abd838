import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { hasPspp, parseCsv, psppCsv, psppRun, psppTables } from './pspp';
import {
  CaseWriter,
  cutUtf8,
  dictionary,
  type SavValue,
  type SavVariable,
} from '../../server/reports/sav/format';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  type SampleRespondent,
} from '../../server/reports/sample';

// The SPSS file (issue 23, part 5): type=stats&format=sav downloaded from the real server and read
// back by PSPP, an independent implementation of the format: the variables, their labels and value
// labels as DISPLAY DICTIONARY prints them, and every case as pspp-convert writes it, against the
// respondents we stored. Russian texts, a very long string (over 255 bytes) and the filters included.
// Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let owner: Session;
let pid: number;
let people: SampleRespondent[];
let ids: number[];
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const LONG = 'Очень длинный ответ про игру, «с кавычками», запятыми и переводом\nстроки. '.repeat(8);

/** The names the file must give, in order: the respondent's own, then Q<n>, Q<n>_<k>, Q<n>_O. */
const NAMES = [
  ...[
    'ID',
    'STATUS',
    'PORTRAIT',
    'GENDER',
    'AGE',
    'CITY',
    'REGION',
    'EDUC',
    'STARTED',
    'FINISHED',
    'DURATION',
  ],
  'Q1',
  'Q2',
  'Q2_O',
  ...['Q3_1', 'Q3_2', 'Q3_3', 'Q3_4', 'Q3_5', 'Q3_O'],
  ...['Q4', 'Q5', 'Q6', 'Q7', 'Q8', 'Q9'],
  ...['Q10_1', 'Q10_2', 'Q10_3', 'Q10_4'],
  ...['Q11_1', 'Q11_2', 'Q11_3', 'Q11_4'],
  'Q12',
  'Q13',
];

beforeAll(async () => {
  server = await startServer();
  const orgId = await server.createOrganization('SPSS');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.SurveyFinished, name: 'Игроки 2026' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  people = sampleRespondents(31, 60, content);
  const open = questions[5];
  people.forEach((p, i) => {
    const row = p.answers.find((a) => a.question_id === open.id);
    if (row && i % 4 === 0) row.text = LONG;
  });
  ids = await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
});
afterAll(() => server?.close());

async function download(query = ''): Promise<Buffer> {
  const res = await fetch(
    `${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats&format=sav${query}`,
    {
      headers: {
        'x-auth-token': owner.accessToken,
        'x-refresh-token': owner.refreshToken,
        'accept-language': 'ru',
      },
    },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/x-spss-sav');
  expect(res.headers.get('content-disposition')).toContain('.sav');
  return Buffer.from(await res.arrayBuffer());
}

const num = (cell: string) => (cell.trim() === '' ? null : Number(cell));
const rowsOf = (p: SampleRespondent, id: string) => p.answers.filter((a) => a.question_id === id);

describe.skipIf(!hasPspp)('the SPSS file', () => {
  it('is read by PSPP with our variables, labels and value labels', async () => {
    const sav = await download();
    const tables = psppTables(await psppRun(sav, 'DISPLAY DICTIONARY.'));
    const vars = tables.get('Variables')!;
    expect(vars[0].slice(0, 3)).toEqual(['Name', 'Position', 'Label']);
    expect(vars.slice(1).map((r) => r[0])).toEqual(NAMES);
    const label = new Map(vars.slice(1).map((r) => [r[0], r[2]]));
    expect(label.get('Q1')).toBe(questions[0].text);
    expect(label.get('Q3_2')).toBe(`${questions[2].text}: ${questions[2].answers[1].text}`);
    expect(label.get('Q3_O')).toBe(`${questions[2].text}: Другое`);
    expect(label.get('Q11_3')).toBe(`${questions[10].text}: ${questions[10].statements[2].text}`);
    expect(label.get('GENDER')).toBe('Пол');
    // Strings as wide as the longest stored text: the long open answer is a very long string.
    const format = new Map(vars.slice(1).map((r) => [r[0], r[7]]));
    expect(format.get('Q6')).toBe(`A${Buffer.byteLength(LONG)}`);
    expect(format.get('STARTED')).toMatch(/^DATETIME/);
    expect(format.get('Q8')).toBe('F10.2');

    const labels = tables.get('Value Labels')!.slice(1);
    const valueLabels = (varLabel: string) => {
      const start = labels.findIndex((r) => r[0] === varLabel);
      expect(start, varLabel).toBeGreaterThanOrEqual(0);
      const out: [string, string][] = [[labels[start][1], labels[start][2]]];
      for (let i = start + 1; i < labels.length && labels[i][0] === ''; i++)
        out.push([labels[i][1], labels[i][2]]);
      return out;
    };
    expect(valueLabels(questions[1].text)).toEqual([
      ...questions[1].answers.map((a, i) => [String(i + 1), a.text]),
      [String(questions[1].answers.length + 1), 'Другое'],
    ]);
    expect(valueLabels(`${questions[10].text}: ${questions[10].statements[0].text}`)).toEqual(
      questions[10].answers.map((a, i) => [String(i + 1), a.text]),
    );
    expect(valueLabels('Пол')).toEqual([
      ['1', 'Мужской'],
      ['2', 'Женский'],
    ]);
    expect(valueLabels(`${questions[2].text}: ${questions[2].answers[0].text}`)).toEqual([
      ['0', 'не выбран'],
      ['1', 'выбран'],
    ]);
  });

  it('holds one case per respondent with the values we stored', async () => {
    const csv = parseCsv(await psppCsv(await download()));
    expect(csv[0]).toEqual(NAMES);
    const cases = csv.slice(1);
    expect(cases).toHaveLength(people.length);
    const col = (name: string) => NAMES.indexOf(name);
    cases.forEach((c, i) => {
      const p = people[i];
      const at = (name: string) => c[col(name)];
      expect(num(at('ID'))).toBe(ids[i]);
      expect(num(at('STATUS'))).toBe(p.status);
      expect(num(at('AGE'))).toBe(p.age);
      expect(num(at('GENDER'))).toBe(p.gender === 'male' ? 1 : p.gender === 'female' ? 2 : null);
      expect(at('CITY').trimEnd()).toBe(p.city);
      const duration = p.finished_at === null ? null : Math.round((p.finished_at - p.started_at) / 1000);
      expect(num(at('DURATION'))).toBe(duration);
      // Single choice: the answer's position, the "Other" after the last, its text beside it.
      const q2 = rowsOf(p, questions[1].id)[0];
      const code = !q2
        ? null
        : q2.answer_id === null
          ? 5
          : questions[1].answers.findIndex((a) => a.id === q2.answer_id) + 1;
      expect(num(at('Q2'))).toBe(code);
      expect(at('Q2_O').trimEnd()).toBe(q2?.answer_id === null ? q2.text : '');
      // Multiple choice: a dichotomy per answer (missing when not answered), the "Other" last.
      const q3 = rowsOf(p, questions[2].id);
      questions[2].answers.forEach((a, k) =>
        expect(num(at(`Q3_${k + 1}`))).toBe(
          q3.length === 0 ? null : q3.some((r) => r.answer_id === a.id) ? 1 : 0,
        ),
      );
      expect(num(at('Q3_5'))).toBe(q3.length === 0 ? null : q3.some((r) => r.answer_id === null) ? 1 : 0);
      expect(num(at('Q8'))).toBe(rowsOf(p, questions[7].id)[0]?.value ?? null);
      // SPSS pads strings with spaces, so trailing spaces do not survive.
      expect(at('Q6').trimEnd()).toBe((rowsOf(p, questions[5].id)[0]?.text ?? '').trimEnd());
      questions[9].answers.forEach((a, k) =>
        expect(num(at(`Q10_${k + 1}`))).toBe(
          rowsOf(p, questions[9].id).find((r) => r.answer_id === a.id)?.value ?? null,
        ),
      );
      questions[10].statements.forEach((s, k) => {
        const r = rowsOf(p, questions[10].id).find((x) => x.statement_id === s.id);
        expect(num(at(`Q11_${k + 1}`))).toBe(
          r ? questions[10].answers.findIndex((a) => a.id === r.answer_id) + 1 : null,
        );
      });
    });
    expect(people.some((p) => rowsOf(p, questions[5].id)[0]?.text === LONG)).toBe(true);
  });

  it('follows the report filters and gives PSPP numbers to count', async () => {
    const sav = await download('&gender=female&ageMin=20');
    const want = people.filter((p) => p.gender === 'female' && p.age !== null && p.age >= 20);
    const csv = parseCsv(await psppCsv(sav));
    expect(csv.length - 1).toBe(want.length);
    // PSPP's own frequencies of the statuses, by their value labels, agree with ours.
    const freq = psppTables(await psppRun(sav, 'FREQUENCIES /VARIABLES=STATUS.'));
    const table = [...freq.entries()].find(([k]) => k.startsWith('Статус'))?.[1];
    expect(table, [...freq.keys()].join('|')).toBeDefined();
    const frequency = (label: string) => Number(table!.find((r) => r[1] === label)?.[2] ?? 0);
    expect(frequency('Начал')).toBe(want.filter((p) => p.status === 1).length);
    expect(frequency('Завершил')).toBe(want.filter((p) => p.status === 2).length);
    expect(frequency('Отсеян')).toBe(want.filter((p) => p.status === 3).length);
  });
});

describe.skipIf(!hasPspp)('the .sav writer at the edges of the format', () => {
  it('writes strings of every awkward width, numbers past the compression range and missing values', async () => {
    const widths = [1, 8, 9, 255, 256, 504, 757, 1000, 4000];
    const variables: SavVariable[] = [
      { type: 'number', name: 'N', label: 'Число' },
      ...widths.map((w): SavVariable => ({ type: 'string', name: `S${w}`, label: `Строка ${w}`, width: w })),
    ];
    // Each string fills its width with two-byte letters and one ASCII byte where the width is odd,
    // so a cut inside a character or a misplaced segment shows.
    const fill = (w: number, seed: number) => {
      const letters = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';
      let s = '';
      for (let i = 0; Buffer.byteLength(s) + 2 <= w; i++) s += letters[(i + seed) % letters.length];
      return Buffer.byteLength(s) < w ? s + 'x' : s;
    };
    const cases: SavValue[][] = [
      [1, ...widths.map((w) => fill(w, 0))],
      [-1234.5, ...widths.map((w) => fill(w, 5).slice(0, 3))],
      [null, ...widths.map(() => null)],
      [151, ...widths.map((w) => fill(w + 10, 7))], // too long: cut at the width, never inside a letter
      [-99, ...widths.map(() => 'end')],
    ];
    const writer = new CaseWriter(variables);
    for (const c of cases) writer.add(c);
    const sav = Buffer.concat([
      dictionary(variables, { label: 'Края', product: 'test', created: new Date() }),
      writer.take(true),
    ]);
    const csv = parseCsv(await psppCsv(sav));
    expect(csv[0]).toEqual(variables.map((v) => v.name));
    const expected = cases.map((c) =>
      c.map((x, i) => {
        if (i === 0) return x;
        if (x === null) return '';
        return cutUtf8(String(x), widths[i - 1]).toString('utf8');
      }),
    );
    expect(csv.slice(1).map((r) => [num(r[0]), ...r.slice(1).map((s) => s.trimEnd())])).toEqual(expected);
  });
});
