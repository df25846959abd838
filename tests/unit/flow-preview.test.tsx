import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import SurveyPreview from '../../src/views/survey/Preview';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// The editor's preview (issue 13): the respondent's runner on the unsaved draft, from the selected
// question, with the same flow (shuffle, recall) as respondents get. Rendered without a DOM.

const draft: ProjectContent = {
  questionnaires: [
    newQuestionnaire({
      blocks: [
        newBlock({
          questions: [
            newQuestion({ id: 'first', text: 'First question', answers: [newAnswer({ text: 'Alpha' })] }),
            newQuestion({
              id: 'chosen',
              text: 'Chosen question',
              category: 'fewAnswers',
              answers: [newAnswer({ text: 'Beta' }), newAnswer({ text: 'Gamma' })],
              other: '',
            }),
          ],
        }),
      ],
    }),
  ],
  portraits: [],
};

describe('SurveyPreview', () => {
  it('starts at the selected question of the draft', () => {
    const html = renderToStaticMarkup(<SurveyPreview content={draft} startQuestionId="chosen" />);
    expect(html).toContain('Chosen question');
    expect(html).not.toContain('First question');
    expect(html).toContain('Beta');
    expect(html).toContain('type="checkbox"');
    expect(html).toMatch(/Предпросмотр|Preview/);
  });

  it('starts at the first question without a selection, and says so when there is nothing to show', () => {
    expect(renderToStaticMarkup(<SurveyPreview content={draft} startQuestionId={null} />)).toContain(
      'First question',
    );
    const empty = renderToStaticMarkup(
      <SurveyPreview content={{ questionnaires: [], portraits: [] }} startQuestionId={null} />,
    );
    expect(empty).toMatch(/add a question|добавьте вопрос/);
  });
});
