import type { Translation } from '../i18n-types';

// English texts of game players' records and a game's numbers; must have every key of ru/players.ts.
const players: Translation['players'] = {
  mapping: {
    title: 'Not every answer reaches the field “{field}”',
    never: 'An answer to a question of this kind cannot be a value of “{field}”: it will not be written.',
    freeText:
      'A typed answer is written to “{field}” only when the respondent types exactly one of its values.',
    answers: 'These answers are not values of “{field}” and will not be written: {answers}',
    range: 'Only values from {min} to {max} are written to “{field}”.',
  },
  stats: {
    open: 'Numbers and players of the game “{name}”',
    title: 'Game “{name}”: numbers and players',
    from: 'From',
    to: 'To',
    show: 'Show',
    loading: 'Loading the numbers…',
    chart: 'Chart by day: offered, started, completed, screened out',
    caption: 'Numbers by day (UTC)',
    date: 'Day',
    offered: 'Offered',
    started: 'Started',
    completed: 'Completed',
    excluded: 'Excluded',
    screenedOut: 'Screened out',
    delivered: 'Callbacks delivered',
    failed: 'Callbacks failed',
    total: 'Total',
    empty: 'The game offered no surveys on these days.',
    close: 'Close',
  },
  record: {
    title: 'A player’s record',
    hint: 'What the player’s answers wrote to their record (questions with “Write the answer to the database”). At the player’s request the record can be erased.',
    playerId: 'Player id in the SDK',
    find: 'Find',
    none: 'Not given',
    fields: 'Other fields',
    updated: 'Updated',
    erase: 'Erase the record',
    eraseAsk:
      'Erase the record of player “{playerId}”? Their answers stay in reports, no longer linked to them. This cannot be undone.',
    eraseConfirm: 'Yes, erase',
    cancel: 'Cancel',
    erased: 'The record was erased; respondents unlinked: {respondents}',
    nothing: 'There was no record; respondents unlinked: {respondents}',
  },
  errors: {
    range: 'The period is at most {max} days, and its start is not after its end',
    playerNotFound: 'This player has no record',
  },
  log: {
    erased: 'A player’s record of the game “{name}” was erased ({respondents} respondents unlinked)',
  },
};
export default players;
