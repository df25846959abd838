// Russian texts of the report's Compare section and the crosstab call (issue 23; base locale).
export default {
  title: 'Сравнение',
  intro:
    'Выберите вопрос для строк и вопрос или признак респондента для столбцов: таблица покажет, различаются ли ответы групп.',
  rows: 'В строках',
  cols: 'В столбцах',
  choose: '— выберите —',
  questionsGroup: 'Вопросы',
  attributesGroup: 'Признаки респондентов',
  questionOption: '{number:number}. {text:string}',
  statementOption: '{number:number}. {text:string}: {statement:string}',
  loading: 'Таблица считается…',
  empty: 'Ни один респондент не ответил на оба вопроса',
  attributes: {
    gender: 'Пол',
    age: 'Возраст',
    city: 'Город',
    education: 'Образование',
    portrait: 'Портрет',
  },
  genders: { male: 'Мужчины', female: 'Женщины' },
  /** The second group of a finding's sentence (after "than"). */
  gendersAfter: { male: 'мужчины', female: 'женщины' },
  ageBand: '{band:string} лет',
  otherCities: 'Другие города',
  otherPlaces: 'Другие места',
  otherAnswer: 'Другое',
  noPortrait: 'Без портрета',
  table: {
    caption: '{rows:string} по группам «{cols:string}»',
    total: 'Всего',
    base: 'База (респонденты)',
    count: 'Число',
    colPercent: '% по столбцу',
    rowPercent: '% по строке',
    letters:
      'Буквы в ячейке: доля в этом столбце значимо больше, чем в столбцах с этими буквами (z-тест долей, поправка Бонферрони, p < 0,05).',
    smallBase: 'База меньше 30: проценты ненадёжны',
    smallBaseMark: 'мало',
    multiple: 'Респондент мог выбрать несколько ответов: проценты по столбцу в сумме больше 100.',
  },
  numbers: {
    caption: 'Среднее «{rows:string}» по группам «{cols:string}»',
    group: 'Группа',
    n: 'N',
    mean: 'Среднее',
    sd: 'Ст. отклонение',
    ci95: '95 % интервал',
    nps: 'NPS',
  },
  findings: {
    title: 'Что видно',
    gender:
      '{larger:string} выбирали «{row:string}» чаще, чем {smaller:string}: {a:string} против {b:string}, {p:string}',
    group:
      'В группе «{larger:string}» выбирали «{row:string}» чаще, чем в группе «{smaller:string}»: {a:string} против {b:string}, {p:string}',
    means:
      'Среднее различается между группами: от {low:string} в группе «{lowGroup:string}» до {high:string} в группе «{highGroup:string}», {p:string}',
    none: 'Значимых различий нет',
    pLess: 'p < {value:string}',
    pEquals: 'p = {value:string}',
    lowExpected:
      'У {share:string} ячеек ожидаемое число меньше 5: хи-квадрат может быть неточен, объедините варианты или возьмите больше респондентов.',
    test: 'Хи-квадрат = {statistic:string}, df = {df:number}, {p:string}',
    welch: 't Уэлча = {statistic:string}, df = {df:string}, {p:string}',
    anova: 'F = {statistic:string}, df = {df1:number}, {df2:number}, {p:string}',
  },
  chart: 'Диаграмма: {rows:string} по группам «{cols:string}», % по столбцу',
  downloadXlsx: 'Скачать таблицу (XLSX)',
  downloadCsv: 'Скачать таблицу (CSV)',
  downloadFailed: 'Не удалось скачать таблицу',
  file: {
    sheet: 'Таблица',
    rows: 'Строки',
    cols: 'Столбцы',
    row: 'Ответ',
    test: 'Тест',
    statistic: 'Статистика',
    df: 'df',
    p: 'p',
    letters: 'Буквы',
  },
  errors: {
    unknownRows: 'Для строк нет такого вопроса: {id:string}',
    unknownCols: 'Для столбцов нет такого вопроса или признака: {id:string}',
    rowsKind:
      'Вопрос этого типа нельзя поставить в строки: только вопросы с вариантами, оценки, шкалы и утверждения матрицы',
    colsMultiple:
      'Вопрос с несколькими ответами нельзя поставить в столбцы: один респондент попал бы в несколько групп',
    colsKind: 'В столбцы можно поставить только вопрос с одним ответом или признак респондента',
    same: 'Вопрос нельзя сравнить с самим собой',
  },
};
