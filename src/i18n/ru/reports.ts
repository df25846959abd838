// Russian texts of the reports screens (base locale). Keys are nested camelCase groups.
export default {
  title: 'Отчёты',
  caption: 'Проекты с отчётами',
  search: 'Поиск по названию или номеру',
  empty: 'Отчётов пока нет: они появляются, когда опрос запущен',
  open: 'Открыть отчёт',
  openFor: 'Открыть отчёт проекта «{name:string}»',
  deleteFor: 'Удалить проект «{name:string}»',
} as const;
