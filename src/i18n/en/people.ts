import type { Translation } from '../i18n-types';

// English texts of the people screens; must have every key of ru/people.ts.
const people: Translation['people'] = {};
export default people;
