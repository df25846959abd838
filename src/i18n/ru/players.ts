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
    open: 'Показатели игры «{name:string}»',
    title: 'Показатели игры «{name:string}»',
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
    screenedOut: 'Отсеяно',
    delivered: 'Колбэков доставлено',
    failed: 'Колбэков не доставлено',
    total: 'Всего',
    empty: 'За эти дни игра не предлагала опросов.',
    close: 'Закрыть',
  },
  errors: {
    range: 'Период — не больше {max:number} дней, и начало не позже конца',
    playerNotFound: 'У этого игрока нет записи',
  },
  log: {
    erased: 'Стёрта запись игрока игры «{name:string}» (ответов отвязано: {respondents:number})',
  },
};
