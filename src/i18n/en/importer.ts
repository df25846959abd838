import type { Translation } from '../i18n-types';

// English texts of the "import from list" preview; must have every key of ru/importer.ts.
const importer: Translation['importer'] = {
  previewTitle: 'Check what will be added',
  previewIntro: 'This text can be read more than one way. These questions will be added ({count}):',
  notes: {
    numberedAnswers: 'Lines numbered “1)” under the questions were read as their answers.',
    restartedNumbers: 'Numbering that starts again under each question was read as its answers.',
    groupsAsText: 'Paragraphs before the choices were read as part of the question’s text.',
  },
  list: 'Questions to be added',
  block: 'Block “{name}”',
  answers: 'Answers: {list}',
  rows: 'Rows: {list}',
  add: 'Add the questions',
  back: 'Edit the text',
};
export default importer;
