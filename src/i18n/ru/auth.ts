// Login, registration and invitation screens.
export default {
  login: {
    title: 'Вход',
    email: 'Эл. почта',
    password: 'Пароль',
    submit: 'Войти',
    noAccount: 'Нет аккаунта?',
    register: 'Зарегистрироваться',
  },
} as const;
