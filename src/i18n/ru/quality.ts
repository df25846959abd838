// Russian texts the server writes about respondents one by one (issue 31): the quality flags'
// reasons, the exclusion's errors and log entries, the downloads' columns. The /responses page's own
// texts are the `responses` group.
export default {
  duration: {
    seconds: '{s:number} с',
    minutes: '{m:number} мин {s:number} с',
  },
  reasons: {
    speeder: 'Прошёл за {took:string}; {share:string} — {threshold:string}',
    half: 'половина медианы',
    share: '{percent:number} % медианы ({median:string})',
    // {{n:zero|one|two|few|many|other}}: 4 строки, 5 строк, 21 строка.
    matrix:
      'Все {statements:number} {{statements:|строка|строки|строки|строк|строк}} матрицы (вопрос {number:number}) отмечены в одном столбце',
    scale:
      '{count:number} {{count:|шкальный вопрос|шкальных вопроса|шкальных вопроса|шкальных вопросов|шкальных вопросов}} подряд (вопросы {from:number}–{to:number}) отмечены в одном положении',
    gibberish: {
      mashing: 'Ответ на вопрос {number:number} похож на случайный набор клавиш: «{text:string}»',
      repeated: 'Ответ на вопрос {number:number} — повторяющиеся символы: «{text:string}»',
      noVowels: 'В ответе на вопрос {number:number} слово без гласных: «{text:string}»',
      symbol: 'Ответ на вопрос {number:number} — одни знаки: «{text:string}»',
    },
    duplicate: {
      player: 'Этот игрок уже прошёл опрос (респондент {first:number})',
      browser: 'Из этого браузера опрос уже прошли (респондент {first:number})',
    },
  },
  erasedReason: 'Стёрт по просьбе респондента',
  errors: {
    notFound: 'В этом проекте нет респондента {id:number}',
    nothingMatches: 'Под этот фильтр не попал ни один респондент',
    stillAnswering: 'Респондент {id:number} ещё отвечает: исключить можно только тех, кто закончил',
    erased: 'Респондент {id:number} стёрт по его просьбе: вернуть его нельзя',
    alreadyErased: 'Респондент {id:number} уже стёрт',
  },
  log: {
    excluded: 'Исключены респонденты проекта {id:number}: {count:number}. Причина: {reason:string}',
    restored: 'Возвращены в отчёт респонденты проекта {id:number}: {count:number}',
    erased: 'Стёрт по просьбе респондента: респондент {respondent:number} проекта {id:number}',
  },
  file: {
    excluded: 'Исключён',
    exclusionReason: 'Причина исключения',
    flags: 'Флаги качества',
    yes: 'да',
    no: 'нет',
  },
  flags: {
    speeder: 'Слишком быстро',
    'straight-liner': 'Одинаковые ответы',
    gibberish: 'Бессмысленный текст',
    duplicate: 'Повторное прохождение',
  },
} as const;
