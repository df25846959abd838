import type { Translation } from '../i18n-types';

// English texts the server writes about respondents one by one (issue 31); see ru/quality.ts.
const quality: Translation['quality'] = {
  duration: {
    seconds: '{s} s',
    minutes: '{m} min {s} s',
  },
  reasons: {
    speeder: 'Finished in {took}; {share} is {threshold}',
    half: 'half the median',
    share: '{percent} % of the median ({median})',
    matrix: 'All {statements} statements of the matrix (question {number}) answered in the same column',
    scale: '{count} scale questions in a row (questions {from}–{to}) answered at the same position',
    gibberish: {
      mashing: 'The answer to question {number} looks like keyboard mashing: “{text}”',
      repeated: 'The answer to question {number} is repeated characters: “{text}”',
      noVowels: 'The answer to question {number} has a word with no vowels: “{text}”',
      symbol: 'The answer to question {number} is only symbols: “{text}”',
    },
    duplicate: {
      player: 'This player has completed the survey before (respondent {first})',
      browser: 'This browser has completed the survey before (respondent {first})',
    },
  },
  erasedReason: 'Erased at the respondent’s request',
  errors: {
    notFound: 'This project has no respondent {id}',
    nothingMatches: 'No respondent matches this filter',
    stillAnswering: 'Respondent {id} is still answering: only respondents who have finished can be excluded',
    erased: 'Respondent {id} was erased at their request and cannot be restored',
    alreadyErased: 'Respondent {id} is already erased',
  },
  log: {
    excluded: 'Respondents of project {id} excluded: {count}. Reason: {reason}',
    restored: 'Respondents of project {id} restored to the report: {count}',
    erased: 'Erased at the respondent’s request: respondent {respondent} of project {id}',
  },
  file: {
    excluded: 'Excluded',
    exclusionReason: 'Exclusion reason',
    flags: 'Quality flags',
    yes: 'yes',
    no: 'no',
  },
  flags: {
    speeder: 'Speeder',
    'straight-liner': 'Straight-liner',
    gibberish: 'Gibberish',
    duplicate: 'Duplicate',
  },
};
export default quality;
