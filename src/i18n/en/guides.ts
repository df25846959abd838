import type { Translation } from '../i18n-types';

// English texts of the helper guides and the demo account; must have every key of ru/guides.ts.
const guides: Translation['guides'] = {
  captions: {
    lkDemoResearcher: {
      s1: 'Questionnaires: all your projects. We have prepared an example project for you.',
      s2: 'Open the example to see how a questionnaire is built: blocks, questions and answers.',
      s3: 'Create a project of your own: give it a name and choose a template.',
      s4: "Reports: your projects' answers, with filters and downloads.",
      s5: 'The help button opens this guide again whenever you need it.',
      s6: 'A demo account builds and previews questionnaires. Sending for moderation and survey links come with a full researcher account.',
    },
    projectEditorDefault: {
      s1: 'The canvas shows the whole questionnaire: blocks with their questions in order, and the redirects between them. Wheel to zoom, drag to move.',
      s2: 'Add a block, then questions to it.',
      s3: 'Select a question: its text, category and answers are edited in the panel on the right.',
      s4: 'Undo and Redo step through your changes; each one is kept in the change log.',
      s5: 'Show or hide the connections between questions: the redirects.',
      s6: 'The preview shows the questionnaire as respondents will see it.',
      s7: 'Import from list: paste questions and answers as text.',
      s8: 'Project settings: priority and filling the report online.',
      s9: 'Save the project. The draft is also kept in this browser, so nothing is lost offline.',
      s10: 'When the questionnaire is ready, send it for moderation. Once sent, it cannot be changed until it is reviewed.',
    },
    projectEditorDirectLink: {
      s1: 'The canvas shows the whole questionnaire: blocks with their questions in order, and the redirects between them. Wheel to zoom, drag to move.',
      s2: 'Add a block, then questions to it.',
      s3: 'Select a question: its text, category and answers are edited in the panel on the right.',
      s4: 'Undo and Redo step through your changes.',
      s5: 'The preview shows the questionnaire as your respondents will see it.',
      s6: 'Save the project. The draft is also kept in this browser, so nothing is lost offline.',
      s7: 'Get the survey link and send it to your own audience. The project goes on moderation.',
      s8: 'Open the report in a new window and follow the answers as they come in.',
    },
  },
  demo: {
    notInDemo: 'Not available in a demo account',
    example: {
      name: 'Example: a player survey',
      ownAudienceName: 'Example: survey your own audience',
      block1: 'About you',
      block2: 'Games',
      questions1:
        '1. How old are you? [one]\n- under 18\n- 18–24\n- 25–34\n- 35 or older\n2. How often do you play? [one]\n- every day\n- a few times a week\n- less often',
      questions2:
        '1. Which genres do you play? [many] [other]\n- shooters\n- puzzles\n- strategy\n- role-playing\n2. How likely are you to recommend our game to a friend? [nps]\n3. What should we improve? [open]',
    },
  },
};

export default guides;
