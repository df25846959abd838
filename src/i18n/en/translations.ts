import type { Translation } from '../i18n-types';

// English texts of the questionnaire's languages in the editor (issue 32).
const translations: Translation['translations'] = {
  switch: {
    label: 'Text language: {name}',
    source: '{name} (source)',
    progress: '{name}: {done} of {total} translated',
    add: 'Add a language…',
    remove: 'Remove {name}…',
    view: 'Translation view: source and translation side by side',
    editing:
      'You are editing the {name} texts. Texts not translated yet show in the source language ({source}).',
  },
  add: {
    title: 'Add a language',
    label: 'Language',
    submit: 'Add',
    none: 'Every available language has been added.',
    hint: 'Respondents who read this language will see the translated texts; untranslated ones show in the source language, and the questionnaire can be sent for moderation once everything is translated.',
  },
  remove: {
    title: 'Remove {name}?',
    text: 'The translations into this language will be deleted ({count} translated texts). You can undo this.',
    agree: 'Remove language',
  },
  view: {
    title: 'Translation into {name}',
    close: 'Close translation view',
    language: 'Translate into',
    progress: '{done} of {total} translated',
    onlyUntranslated: 'Untranslated only',
    help: 'Enter or Alt+↓ goes to the next text, Alt+↑ to the previous one; a translation is kept when you move on. Ctrl+Z undoes.',
    source: 'Source ({name})',
    target: 'Translation ({name})',
    fieldLabel: '{where}: {name} translation',
    empty: 'The questionnaire has no texts to translate yet.',
    allDone: 'Everything is translated.',
    noTarget: 'The questionnaire has one language. Add a language to translate.',
    list: 'Texts of the questionnaire',
    fields: {
      text: 'text',
      other: '"Other"',
      scaleMin: 'label at the scale start',
      scaleMax: 'label at the scale end',
    },
  },
  files: {
    title: "Translators' files",
    exportXliff: 'Download XLIFF',
    exportXlsx: 'Download XLSX',
    import: 'Upload a translation (XLIFF or XLSX)',
    reading: 'Reading the file…',
    failed: 'Could not load the translation from "{file}": {reason}',
    errors: {
      xml: 'the file is not well-formed XML (line {line})',
      notXliff: 'this is not an XLIFF file',
      version1: 'this is XLIFF 1.2; save the translation as XLIFF 2.0',
      invalid: 'the file has a unit without an id or a segment without a source (line {line})',
      otherLanguage: 'it is a translation into {found}, not {name}',
      otherSource: "its source language is {found}, the questionnaire's is {name}",
      notXlsx: 'the file is not an XLSX workbook',
      noKeyColumn: 'the first row of the sheet has no "key" column',
      noLanguageColumn: 'the first row of the sheet has no "{code}" column with the translation',
      tooBig: 'the file is larger than {mb} MB',
      type: 'a .xlf, .xliff or .xlsx file is needed',
    },
    plan: {
      title: 'Translation from "{file}"',
      changes: 'Texts that will change: {count}.',
      nothing: 'The file changes nothing: its translations are already in the questionnaire, or empty.',
      empty: 'Not translated in the file (left as they are): {count}.',
      unchanged: 'Already translated the same way: {count}.',
      unknown:
        "Units the questionnaire does not have (deleted since the export, or another project's), skipped: {count}.",
      sourceChanged: 'The source text changed since the export; check the translation: {count}.',
      inlineCodes: 'The translation had markup: its text is kept, the markup codes dropped: {count}.',
      apply: 'Apply',
      done: 'Translations loaded: {count}. Ctrl+Z undoes.',
    },
  },
  fill: {
    mode: 'What to do with the list',
    addQuestions: 'Add questions',
    fillLanguage: "Fill the questionnaire's texts in a language…",
    language: 'Language of the texts',
    questionnaire: 'Questionnaire',
    hint: "The questions, answers and rows of the list take the places of the questionnaire's questions, answers and rows, in order.",
    preview: 'Check what goes where',
    where: 'Where',
    now: 'Now',
    next: 'Becomes',
    moreInList:
      'The list has more questions than the questionnaire ({list} and {questions}): the extra ones are not used.',
    fewerInList:
      'The list has fewer questions than the questionnaire ({list} and {questions}): the rest stay as they are.',
    childCount: '{where}: {list} in the list, {questions} in the questionnaire',
    apply: 'Fill',
    nothing: 'The list changes nothing.',
    done: 'Texts filled: {count}. Ctrl+Z undoes.',
    blank: '(empty)',
  },
  outline: {
    untranslated: 'not translated',
  },
  preview: {
    language: 'Preview language',
  },
};

export default translations;
