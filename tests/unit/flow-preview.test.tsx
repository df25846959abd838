import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import SurveyPreview, { previewPlaces } from '../../src/views/survey/Preview';
import { configureClient } from '../../src/api/client';
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

  it("shows the panels' fields on the draft: the NPS end labels and an open answer's length", () => {
    const one = (q: ReturnType<typeof newQuestion>): ProjectContent => ({
      questionnaires: [newQuestionnaire({ blocks: [newBlock({ questions: [q] })] })],
      portraits: [],
    });
    const nps = renderToStaticMarkup(
      <SurveyPreview
        content={one(
          newQuestion({ text: 'Recommend?', category: 'nps', scaleLabels: { min: 'Nope', max: 'Yes!' } }),
        )}
        startQuestionId={null}
      />,
    );
    expect(nps).toContain('Nope');
    expect(nps).toContain('Yes!');
    // The group is described by both words.
    expect(nps).toMatch(/<fieldset aria-describedby="[^"]+-low [^"]+-high"/);
    const open = renderToStaticMarkup(
      <SurveyPreview
        content={one(newQuestion({ text: 'Why?', category: 'open', textLength: { min: 0, max: 140 } }))}
        startQuestionId={null}
      />,
    );
    expect(open).toContain('maxLength="140"');
    expect(open).toContain('0 / 140');
  });

  it('says the answer count limit before Next refuses it, and describes the group with it', () => {
    const html = renderToStaticMarkup(
      <SurveyPreview
        content={{
          questionnaires: [
            newQuestionnaire({
              blocks: [
                newBlock({
                  questions: [
                    newQuestion({
                      text: 'Pick some',
                      category: 'fewAnswers',
                      answers: ['a', 'b', 'c', 'd'].map((t) => newAnswer({ text: t })),
                      answerLimit: { min: 2, max: 3 },
                    }),
                  ],
                }),
              ],
            }),
          ],
          portraits: [],
        }}
        startQuestionId={null}
      />,
    );
    expect(html).toMatch(/Choose from 2 to 3 answers|Выберите ответов: от 2 до 3/);
    const id = /<fieldset aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<p id="${id}"`);
  });
});

describe("the preview's place lookup", () => {
  it("asks the cities lookup for the city question's region only, and lists regions for a region question", async () => {
    const urls: string[] = [];
    const city = (id: string, region: string) => ({
      id,
      name: id.split(':')[1],
      latinName: id.split(':')[1],
      region: { id: region, name: `${region} name` },
    });
    configureClient({
      baseUrl: 'http://preview.test',
      fetch: (async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify([city('MOS:Podolsk', 'MOS'), city('MOS:Khimki', 'MOS')]), {
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
    });
    const signal = new AbortController().signal;
    const found = await previewPlaces('city', 'Po', signal, 'MOS');
    expect(new URL(urls[0]).searchParams.get('region')).toBe('MOS');
    expect(found[0]).toEqual({ id: 'MOS:Podolsk', name: 'Podolsk', detail: 'MOS name' });
    await previewPlaces('city', 'Po', signal);
    expect(new URL(urls[1]).searchParams.has('region')).toBe(false);
    expect(await previewPlaces('region', 'Mo', signal)).toEqual([
      { id: 'MOS', name: 'MOS name', detail: '' },
    ]);
    configureClient({ baseUrl: '', fetch: (...args) => globalThis.fetch(...args) });
  });
});

describe('SurveyPreview in a language (issue 32)', () => {
  const bilingual: ProjectContent = {
    languages: ['ru', 'en', 'de'],
    portraits: [],
    questionnaires: [
      newQuestionnaire({
        blocks: [
          newBlock({
            questions: [
              newQuestion({
                id: 'q',
                text: 'Вы играете?',
                translations: { en: { text: 'Do you play?' } },
                answers: [
                  newAnswer({ text: 'Да', translations: { en: { text: 'Yes' } } }),
                  newAnswer({ text: 'Нет' }),
                ],
              }),
            ],
          }),
        ],
      }),
    ],
  };

  it('shows the texts in that language, the source where one is missing, and the interface to match', () => {
    const en = renderToStaticMarkup(
      <SurveyPreview content={bilingual} startQuestionId={null} language="en" />,
    );
    expect(en).toContain('Do you play?');
    expect(en).toContain('Yes');
    expect(en).toContain('Нет');
    expect(en).toContain('Next');
    expect(en).toContain('lang="en"');
  });

  it('shows a language without an interface dictionary with its questions and the interface in English', () => {
    const de = renderToStaticMarkup(
      <SurveyPreview content={bilingual} startQuestionId={null} language="de" />,
    );
    expect(de).toContain('Вы играете?');
    expect(de).toContain('Next');
    expect(de).toContain('lang="de"');
    const ru = renderToStaticMarkup(
      <SurveyPreview content={bilingual} startQuestionId={null} language="ru" />,
    );
    expect(ru).toContain('Вы играете?');
    expect(ru).toContain('Далее');
  });
});
