import type { Translation } from '../i18n-types';

// English texts of the games screens; must have every key of ru/games.ts.
const games: Translation['games'] = {};
export default games;
