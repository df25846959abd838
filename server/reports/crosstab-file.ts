import ExcelJS from 'exceljs';
import type { CrosstabJson } from '../../src/domain/crosstab';
import type { TranslationFunctions } from '../../src/i18n/i18n-types';
import { csvCell } from './workbook';

// A crosstab as a file (GET /project/stats/crosstab&format=xlsx|csv): the same rows in both, built
// from the JSON answer so the file and the page never disagree. A crosstab is small (its size is
// bounded by the two dimensions), so the workbook is built in memory, not streamed.

type Cell = string | number | null;

export function crosstabRows(x: CrosstabJson, t: TranslationFunctions): Cell[][] {
  const T = t.compare;
  const rowsText = x.rowsOf.statement ? `${x.rowsOf.text}: ${x.rowsOf.statement.text}` : x.rowsOf.text;
  const out: Cell[][] = [
    [t.reports.file.project(), x.project.name],
    [T.file.rows(), rowsText],
    [T.file.cols(), x.colsOf.text],
  ];
  if (x.rows.length > 0) {
    out.push([]);
    out.push([
      T.file.row(),
      ...x.cols.flatMap((c) => [`(${c.letter}) ${c.text}`, null, null]),
      T.table.total(),
    ]);
    out.push([
      null,
      ...x.cols.flatMap(() => [T.table.count(), T.table.colPercent(), T.file.letters()]),
      T.table.count(),
    ]);
    x.rows.forEach((r, i) =>
      out.push([
        r.text,
        ...x.cells[i].flatMap((c) => [c.count, c.colPercent, c.letters.join(' ')]),
        x.totals.rows[i],
      ]),
    );
    out.push([T.table.base(), ...x.cols.flatMap((c) => [c.total, null, null]), x.totals.all]);
  }
  out.push([]);
  out.push([T.file.test(), T.file.statistic(), T.file.df(), T.file.p()]);
  if (x.test) out.push(['chi-square', x.test.statistic, x.test.df, x.test.p]);
  x.rowTests?.forEach((rt, i) => {
    if (rt) out.push([`chi-square: ${x.rows[i].text}`, rt.statistic, rt.df, rt.p]);
  });
  if (x.numbers) {
    const N = T.numbers;
    const test = x.numbers.test;
    if (test?.kind === 'welch-t') out.push(['welch-t', test.statistic, test.df, test.p]);
    if (test?.kind === 'anova') out.push(['anova', test.statistic, `${test.df1}; ${test.df2}`, test.p]);
    out.push([]);
    const nps = x.rowsOf.category === 'nps';
    out.push([
      N.group(),
      N.n(),
      N.mean(),
      N.sd(),
      `${N.ci95()} −`,
      `${N.ci95()} +`,
      ...(nps ? [N.nps()] : []),
    ]);
    const line = (label: string, g: NonNullable<CrosstabJson['numbers']>['total']) => [
      label,
      g.n,
      g.mean,
      g.sd,
      g.ci95?.[0] ?? null,
      g.ci95?.[1] ?? null,
      ...(nps ? [g.nps ?? null] : []),
    ];
    x.cols.forEach((c, j) => out.push(line(`(${c.letter}) ${c.text}`, x.numbers!.cols[j])));
    out.push(line(T.table.total(), x.numbers.total));
  }
  return out;
}

export async function crosstabXlsx(x: CrosstabJson, t: TranslationFunctions): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(t.compare.file.sheet());
  for (const row of crosstabRows(x, t)) ws.addRow(row);
  ws.getColumn(1).width = 40;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function crosstabCsv(x: CrosstabJson, t: TranslationFunctions): string {
  // The byte order mark makes Excel read the file as UTF-8 (Cyrillic stays readable).
  return (
    '\uFEFF' +
    crosstabRows(x, t)
      .map((r) => r.map(csvCell).join(',') + '\r\n')
      .join('')
  );
}
