// The app shell: layouts, sidebar, header, settings, profile, and the log texts of signing in.
export default {
  log: {
    signedIn: 'Вход в систему',
    signedOut: 'Выход из системы',
    passwordChanged: 'Пароль изменён',
    passwordSetFor: 'Задан новый пароль для {email:string}',
  },
  layout: {
    mainNavigation: 'Основное меню',
  },
} as const;
