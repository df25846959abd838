import { createRoot } from 'react-dom/client';
import { SurveyCreator, SurveyCreatorComponent } from 'survey-creator-react';
// The fontless styles: the others load Open Sans from Google's servers, and a bench talks to loopback only.
import 'survey-core/survey-core.fontless.min.css';
import 'survey-creator-core/survey-creator-core.fontless.min.css';

// The peer of tests/bench/editor-typing.bench.ts: SurveyJS Creator given the questionnaire our
// editor gets there (bigProject: blocks of 20 single-choice questions with 5 answers each, one
// page per block), `?n=` questions. Built by the bench into a temporary folder and served from
// loopback; never imported from src/ and never shipped (docs/decisions.md).

const n = Number(new URLSearchParams(location.search).get('n') ?? 100);
const pages = Array.from({ length: Math.ceil(n / 20) }, (_, b) => ({
  name: `block${b + 1}`,
  title: `Block ${b + 1}`,
  elements: Array.from({ length: Math.min(20, n - b * 20) }, (_, q) => ({
    type: 'radiogroup',
    name: `q${b}_${q}`,
    title: `Question ${b + 1}.${q + 1}: how often do you play in the evening?`,
    choices: Array.from({ length: 5 }, (_, a) => ({ value: `a${b}_${q}_${a}`, text: `Answer ${a + 1}` })),
  })),
}));

const creator = new SurveyCreator({ autoSaveEnabled: false });
creator.JSON = { pages };
createRoot(document.getElementById('root')!).render(<SurveyCreatorComponent creator={creator} />);
