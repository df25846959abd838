import type { Translation } from '../i18n-types';

// English texts of the report's Compare section; must have every key of ru/compare.ts.
const compare: Translation['compare'] = {
  title: 'Compare',
  intro:
    'Choose a question for the rows and a question or a respondent attribute for the columns: the table shows whether the groups answer differently.',
  rows: 'Rows',
  cols: 'Columns',
  choose: '— choose —',
  questionsGroup: 'Questions',
  attributesGroup: 'Respondent attributes',
  questionOption: '{number}. {text}',
  statementOption: '{number}. {text}: {statement}',
  loading: 'Computing the table…',
  empty: 'No respondent has answered both',
  attributes: {
    gender: 'Gender',
    age: 'Age',
    city: 'City',
    education: 'Education',
    portrait: 'Portrait',
  },
  genders: { male: 'Men', female: 'Women' },
  gendersAfter: { male: 'men', female: 'women' },
  ageBand: '{band} years',
  otherCities: 'Other cities',
  otherPlaces: 'Other places',
  otherAnswer: 'Other',
  noPortrait: 'No portrait',
  table: {
    caption: '{rows} by “{cols}”',
    total: 'Total',
    base: 'Base (respondents)',
    count: 'Count',
    colPercent: 'Column %',
    rowPercent: 'Row %',
    letters:
      'Letters in a cell: its share is significantly larger than in the columns with those letters (z-test of proportions, Bonferroni-adjusted, p < 0.05).',
    smallBase: 'Base under 30: the percentages are shaky',
    smallBaseMark: 'small',
    multiple: 'A respondent could choose several answers: column percentages add up past 100.',
  },
  numbers: {
    caption: 'Mean of “{rows}” by “{cols}”',
    group: 'Group',
    n: 'N',
    mean: 'Mean',
    sd: 'Std. deviation',
    ci95: '95 % interval',
    nps: 'NPS',
  },
  findings: {
    title: 'What stands out',
    gender: '{larger} chose «{row}» more often than {smaller}: {a} against {b}, {p}',
    group:
      'Respondents in «{larger}» chose «{row}» more often than those in «{smaller}»: {a} against {b}, {p}',
    means: 'The mean differs between the groups: from {low} in «{lowGroup}» to {high} in «{highGroup}», {p}',
    none: 'No significant difference',
    pLess: 'p < {value}',
    pEquals: 'p = {value}',
    lowExpected:
      '{share} of the cells expect fewer than 5 respondents: the chi-square may be inaccurate; merge answers or collect more respondents.',
    test: 'Chi-square = {statistic}, df = {df}, {p}',
    welch: 'Welch’s t = {statistic}, df = {df}, {p}',
    anova: 'F = {statistic}, df = {df1}, {df2}, {p}',
  },
  chart: 'Chart: {rows} by “{cols}”, column %',
  downloadXlsx: 'Download the table (XLSX)',
  downloadCsv: 'Download the table (CSV)',
  downloadFailed: 'The table could not be downloaded',
  file: {
    sheet: 'Table',
    rows: 'Rows',
    cols: 'Columns',
    row: 'Answer',
    test: 'Test',
    statistic: 'Statistic',
    df: 'df',
    p: 'p',
    letters: 'Letters',
  },
  errors: {
    unknownRows: 'No such question to put in rows: {id}',
    unknownCols: 'No such question or attribute to put in columns: {id}',
    rowsKind:
      'A question of this type cannot be rows: only choice questions, ratings, scales and matrix statements',
    colsMultiple:
      'A multiple-choice question cannot be columns: one respondent would fall into several groups',
    colsKind: 'Only a single-choice question or a respondent attribute can be columns',
    same: 'A question cannot be compared with itself',
  },
};
export default compare;
