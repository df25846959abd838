// Russian texts of game players' records and a game's numbers (issue 24): the editor's warnings for
// questions written to a player's record, the numbers dialog on /games, errors and log entries.
export default {
  mapping: {
    title: 'Не каждый ответ попадёт в поле «{field:string}»',
    never: 'Ответ на вопрос этого типа не может стать значением поля «{field:string}»: он не будет записан.',
    freeText:
      'Свободный ответ запишется в поле «{field:string}», только если респондент напишет ровно одно из его значений.',
    answers: 'Эти ответы не являются значениями поля «{field:string}» и не будут записаны: {answers:string}',
    range: 'В поле «{field:string}» запишутся только значения от {min:number} до {max:number}.',
  },
  stats: {
    open: 'Показатели и игроки игры «{name:string}»',
    title: 'Игра «{name:string}»: показатели и игроки',
    from: 'С',
    to: 'По',
    show: 'Показать',
    loading: 'Загружаем показатели…',
    chart: 'График по дням: предложено, начато, завершено, отсеяно',
    caption: 'Показатели по дням (UTC)',
    date: 'День',
    offered: 'Предложено',
    started: 'Начато',
    completed: 'Завершено',
    excluded: 'Исключено',
    screenedOut: 'Отсеяно',
    delivered: 'Колбэков доставлено',
    failed: 'Колбэков не доставлено',
    total: 'Всего',
    empty: 'За эти дни игра не предлагала опросов.',
    close: 'Закрыть',
  },
  record: {
    title: 'Запись игрока',
    hint: 'Что ответы игрока записали в его запись (вопросы с «Записывать ответ в базу данных»). По просьбе игрока запись можно стереть.',
    playerId: 'ID игрока в SDK',
    find: 'Найти',
    none: 'Не указано',
    fields: 'Другие поля',
    updated: 'Обновлена',
    erase: 'Стереть запись',
    eraseAsk:
      'Стереть запись игрока «{playerId:string}»? Его ответы останутся в отчётах без привязки к нему. Это нельзя отменить.',
    eraseConfirm: 'Да, стереть',
    cancel: 'Отмена',
    erased: 'Запись стёрта, ответов отвязано: {respondents:number}',
    nothing: 'Записи не было; ответов отвязано: {respondents:number}',
  },
  errors: {
    range: 'Период — не больше {max:number} дней, и начало не позже конца',
    playerNotFound: 'У этого игрока нет записи',
  },
  log: {
    erased: 'Стёрта запись игрока игры «{name:string}» (ответов отвязано: {respondents:number})',
  },
};
