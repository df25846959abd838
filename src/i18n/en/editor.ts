import type { Translation } from '../i18n-types';

// English texts of the editor screens; must have every key of ru/editor.ts.
const editor: Translation['editor'] = {};
export default editor;
