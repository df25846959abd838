import type { ProjectContent } from '../../src/domain/content/model';

// The sample questionnaire (sample.ts) in English as well (issue 32): `npm run demo`'s project is
// in Russian and English, and the language tests read its report, files and Compare table in both.
// Every text a respondent sees has its English here; a text this table lacks stays untranslated
// (and the editor's problem list would name it).

const ENGLISH: Record<string, string> = {
  'Как часто вы играете в мобильные игры?': 'How often do you play mobile games?',
  'Каждый день': 'Every day',
  'Несколько раз в неделю': 'A few times a week',
  'Не играю': 'I do not play',
  'Какой жанр вам ближе всего?': 'Which genre do you like best?',
  Головоломки: 'Puzzles',
  Стратегии: 'Strategy',
  Шутеры: 'Shooters',
  Ролевые: 'Role-playing',
  'На каких устройствах вы играете?': 'Which devices do you play on?',
  Телефон: 'Phone',
  Планшет: 'Tablet',
  Компьютер: 'Computer',
  Консоль: 'Console',
  'Сколько вы тратите на игры в месяц?': 'How much do you spend on games a month?',
  Ничего: 'Nothing',
  'До 500 ₽': 'Up to 500 ₽',
  '500–2000 ₽': '500–2000 ₽',
  'Больше 2000 ₽': 'Over 2000 ₽',
  'Сколько часов в неделю вы играете?': 'How many hours a week do you play?',
  'Что бы вы улучшили в игре?': 'What would you improve in the game?',
  'Оцените игру': 'Rate the game',
  'Насколько сложна игра?': 'How hard is the game?',
  'Порекомендуете ли вы игру друзьям?': 'Would you recommend the game to your friends?',
  'Расставьте по важности': 'Put these in order of importance',
  Сюжет: 'Story',
  Графика: 'Graphics',
  Музыка: 'Music',
  Сообщество: 'Community',
  'Оцените стороны игры': 'Rate these sides of the game',
  Плохо: 'Poor',
  Нормально: 'Fair',
  Отлично: 'Excellent',
  Управление: 'Controls',
  Звук: 'Sound',
  'В каком регионе вы живёте?': 'Which region do you live in?',
  'В каком городе вы живёте?': 'Which city do you live in?',
  Да: 'Yes',
  'Скорее да': 'Rather yes',
  'Скорее нет': 'Rather no',
  Нет: 'No',
};

const english = (ru: string): string | undefined =>
  ENGLISH[ru] ??
  (/^Дополнительный вопрос (\d+)$/.exec(ru) ? ru.replace(/^\S+ \S+/, 'Extra question') : undefined);

/** The content with English added as its second language, every text translated. */
export function withEnglish(content: ProjectContent): ProjectContent {
  const en = <T extends { text: string; translations?: Record<string, { text?: string }> }>(item: T): T => {
    const text = english(item.text);
    return text === undefined ? item : { ...item, translations: { ...item.translations, en: { text } } };
  };
  return {
    ...content,
    languages: ['ru', 'en'],
    questionnaires: content.questionnaires.map((qn) => ({
      ...qn,
      blocks: qn.blocks.map((b) => ({
        ...b,
        questions: b.questions.map((q) => ({
          ...en(q),
          answers: q.answers.map(en),
          statements: q.statements.map(en),
        })),
      })),
    })),
  };
}
