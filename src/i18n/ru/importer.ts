// Russian texts of the "import from list" preview (base locale): what an ambiguous paste will become.
export default {
  previewTitle: 'Проверьте, что получится',
  previewIntro: 'Этот текст можно понять по-разному. Будут добавлены такие вопросы ({count:number}):',
  notes: {
    numberedAnswers: 'Строки с нумерацией «1)» под вопросами прочитаны как их ответы.',
    restartedNumbers: 'Нумерация, которая начинается заново под каждым вопросом, прочитана как ответы.',
    groupsAsText: 'Абзацы перед вариантами ответа прочитаны как текст вопроса.',
  },
  list: 'Вопросы, которые будут добавлены',
  block: 'Блок «{name:string}»',
  answers: 'Ответы: {list:string}',
  rows: 'Строки: {list:string}',
  add: 'Добавить вопросы',
  back: 'Исправить текст',
} as const;
