import type { BaseTranslation } from '../i18n-types';

// Block callbacks: the block panel's deliveries, the server's errors and the Logs' entries.
const callbacks = {
  title: 'Вызовы callbackUrl',
  empty: 'Вызовов ещё не было',
  sendTest: 'Отправить тестовый вызов',
  testQueued: 'Тестовый вызов поставлен в очередь',
  refresh: 'Обновить список вызовов',
  refreshShort: 'Обновить',
  queued: 'Вызов поставлен в очередь',
  retry: 'Отправить снова',
  test: 'тест',
  attempts: 'Попыток: {count:number}',
  code: 'Ответ: {code:number}',
  next: 'Следующая попытка: {at:string}',
  status: {
    pending: 'В очереди',
    delivered: 'Доставлен',
    failed: 'Не доставлен',
    'gave-up': 'Попытки исчерпаны',
    refused: 'Адрес запрещён',
  },
  errors: {
    notFound: 'Вызов не найден',
    notRetryable: 'Снова можно отправить только недоставленный вызов',
    unknownBlock: 'В проекте нет такого блока',
    noUrl: 'У блока не задан callbackUrl',
  },
  log: {
    secretRotated: 'Проект {id:number}: создан новый секрет подписи вызовов',
    retried: 'Проект {id:number}: вызов {delivery:string} отправлен снова',
    testSent: 'Проект {id:number}: тестовый вызов блока {block:string}',
  },
} satisfies BaseTranslation;

export default callbacks;
