import { expect } from 'vitest';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import type { Question } from '../../src/domain/content/model';
import type { SampleRespondent } from '../../server/reports/sample';

// The brute force behind the report's property tests (stats.test.ts, report-counters.test.ts):
// every number of the JSON report counted again over the people, in the plainest way.

/** How the open answers' first page is checked: in the order written, or as a set (rows rewritten going Back get new ids). */
export type OpenOrder = 'written' | 'any';

export function matches(p: SampleRespondent, f: ReportFilters): boolean {
  return (
    (f.gender === undefined || p.gender === f.gender) &&
    (f.ageMin === undefined || (p.age !== null && p.age >= f.ageMin)) &&
    (f.ageMax === undefined || (p.age !== null && p.age <= f.ageMax)) &&
    (f.city === undefined || p.city === f.city) &&
    (f.education === undefined || p.education === f.education) &&
    (f.portrait === undefined || p.portrait_id === f.portrait) &&
    // The sample questionnaires' source is Russian: a respondent without a language answered in it.
    (f.language === undefined || (p.language ?? 'ru') === f.language)
  );
}

const pct = (n: number, of: number) => (of > 0 ? Math.round((n * 1000) / of) / 10 : 0);
const r2 = (n: number) => Math.round(n * 100) / 100;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return r2(s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2);
}

function expectQuestion(
  q: Question,
  got: ReportJson['questions'][number],
  people: SampleRespondent[],
  openOrder: OpenOrder,
) {
  const rows = people.map((p) => p.answers.filter((a) => a.question_id === q.id));
  const answered = rows.filter((r) => r.length > 0).length;
  expect(got.answered, q.category).toBe(answered);
  const all = rows.flat();
  switch (q.category) {
    case 'oneAnswer':
    case 'fewAnswers':
    case 'screening':
    case 'qualification':
      for (const a of q.answers) {
        const n = all.filter((r) => r.answer_id === a.id).length;
        expect(got.answers!.find((x) => x.id === a.id)).toMatchObject({
          count: n,
          percent: pct(n, answered),
        });
      }
      if (q.other !== null) expect(got.other!.count).toBe(all.filter((r) => r.answer_id === null).length);
      break;
    case 'matrix':
      for (const s of q.statements) {
        const mine = all.filter((r) => r.statement_id === s.id);
        const row = got.matrix!.find((x) => x.id === s.id)!;
        expect(row.answered).toBe(mine.length);
        for (const a of q.answers)
          expect(row.cells.find((c) => c.id === a.id)!.count).toBe(
            mine.filter((r) => r.answer_id === a.id).length,
          );
      }
      break;
    case 'sortable':
      for (const a of q.answers) {
        const ranks = all.filter((r) => r.answer_id === a.id).map((r) => r.value!);
        const mean = ranks.length ? r2(ranks.reduce((s, v) => s + v, 0) / ranks.length) : null;
        expect(got.ranks!.find((x) => x.id === a.id)).toMatchObject({ count: ranks.length, meanRank: mean });
      }
      break;
    case 'fromTo':
    case 'slider':
    case 'nps':
    case 'starRating': {
      const values = all.map((r) => r.value!);
      const mean = values.length ? r2(values.reduce((s, v) => s + v, 0) / values.length) : null;
      expect(got.numbers!.mean).toBe(mean);
      expect(got.numbers!.median).toBe(median(values));
      const distinct = [...new Set(values)].sort((a, b) => a - b);
      expect(got.numbers!.distribution).toEqual(
        distinct.map((value) => ({ value, count: values.filter((v) => v === value).length })),
      );
      if (q.category === 'nps') {
        const promoters = pct(values.filter((v) => v >= 9).length, values.length);
        const detractors = pct(values.filter((v) => v <= 6).length, values.length);
        expect(got.nps!.score).toBe(values.length ? r2(promoters - detractors) : null);
      }
      break;
    }
    case 'open':
      expect(got.open!.total).toBe(all.length);
      if (openOrder === 'written')
        expect(got.open!.items.map((i) => i.text)).toEqual(all.slice(0, 20).map((r) => r.text));
      else if (all.length <= 20)
        expect(got.open!.items.map((i) => i.text).sort()).toEqual(all.map((r) => r.text).sort());
      else expect(got.open!.items).toHaveLength(20);
      break;
    case 'cityAuto':
    case 'regionAuto':
      for (const t of new Set(all.map((r) => r.text)))
        expect(got.places!.find((p) => p.id === t)!.count).toBe(all.filter((r) => r.text === t).length);
      expect(got.places!.reduce((s, p) => s + p.count, 0)).toBe(all.length);
      break;
  }
}

export function expectReport(
  got: ReportJson,
  everyone: SampleRespondent[],
  f: ReportFilters,
  questions: Question[],
  openOrder: OpenOrder = 'written',
  dropOff = true,
) {
  // Excluded respondents (issue 31) leave every figure; the report counts them beside.
  const matching = everyone.filter((p) => matches(p, f));
  const people = matching.filter((p) => !p.excluded);
  expect(got.respondents).toEqual({
    started: people.length,
    completed: people.filter((p) => p.status === 2).length,
    screenedOut: people.filter((p) => p.status === 3).length,
    inProgress: people.filter((p) => p.status === 1).length,
    excluded: matching.length - people.length,
  });
  expect(got.questions.map((q) => q.id)).toEqual(questions.map((q) => q.id));
  questions.forEach((q, i) => expectQuestion(q, got.questions[i], people, openOrder));
  for (const c of got.cities) expect(c.count).toBe(people.filter((p) => p.city === c.id).length);
  expect(got.cities.reduce((s, c) => s + c.count, 0)).toBe(people.filter((p) => p.city !== null).length);
  if (got.available && dropOff) expectDropOff(got, people, questions);
}

/** The funnel, timing and timeline of the people the filters leave, counted one by one. */
export function expectDropOff(got: ReportJson, people: SampleRespondent[], questions: Question[]) {
  expect(got.funnel).toEqual(
    questions.map((q) => {
      const answered = people.filter((p) => p.answers.some((a) => a.question_id === q.id));
      const seen = people.filter((p) => answered.includes(p) || p.last_question_id === q.id);
      const left = people.filter((p) => p.last_question_id === q.id && p.status !== 2);
      return {
        questionId: q.id,
        reached: seen.length,
        answered: answered.length,
        leftHere: left.length,
        screenedOut: left.filter((p) => p.status === 3).length,
      };
    }),
  );
  const secs = people
    .filter((p) => p.status === 2 && p.finished_at !== null)
    .map((p) => Math.floor((p.finished_at! - p.started_at) / 1000))
    .sort((a, b) => a - b);
  const n = secs.length;
  expect(got.timing).toEqual({
    completed: n,
    medianSeconds: n === 0 ? null : n % 2 ? secs[(n - 1) / 2] : (secs[n / 2 - 1] + secs[n / 2]) / 2,
    p90Seconds: n === 0 ? null : secs[Math.ceil(n * 0.9) - 1],
  });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const days = new Map<string, { started: number; completed: number }>();
  const at = (d: string) => days.get(d) ?? days.set(d, { started: 0, completed: 0 }).get(d)!;
  for (const p of people) {
    at(day(p.started_at)).started++;
    if (p.status === 2 && p.finished_at !== null) at(day(p.finished_at)).completed++;
  }
  expect(got.timeline).toEqual(
    [...days].sort((a, b) => a[0].localeCompare(b[0])).map(([d, v]) => ({ day: d, ...v })),
  );
}
