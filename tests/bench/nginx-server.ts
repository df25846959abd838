import { SURVEY_LIMITS } from '../../server/routes/survey';

// A server process for nginx-answers.bench.ts: server/main.ts as an operator runs it, with only the
// per-address answer limit lifted. The bench sends every answer from one address, which nginx passes
// on (X-Forwarded-For); the limit would stop the bench, not a crowd.
SURVEY_LIMITS.answerPerAddress = 1e9;
await import('../../server/main');
