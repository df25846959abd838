import { contentLanguages, localized } from '../content/languages';
import type { ProjectContent, Question } from '../content/model';

// The questionnaire as a respondent reading one language sees it: every text through `localized`
// (its translation, or the source where there is none). The editor's preview runs the runner on it,
// so the fallback can be seen before the questionnaire is sent. Questions are kept as they are when
// nothing of theirs changes; the source language gives the content itself.

function questionIn(q: Question, language: string, content: ProjectContent): Question {
  if (
    !q.translations?.[language] &&
    !q.answers.some((a) => a.translations?.[language]) &&
    !q.statements.some((s) => s.translations?.[language])
  )
    return q;
  return {
    ...q,
    text: localized(q, 'text', language, content),
    other: q.other === null ? null : localized(q, 'other', language, content),
    scaleLabels: q.scaleLabels
      ? { min: localized(q, 'scaleMin', language, content), max: localized(q, 'scaleMax', language, content) }
      : q.scaleLabels,
    answers: q.answers.map((a) => ({ ...a, text: localized(a, 'text', language, content) })),
    statements: q.statements.map((s) => ({ ...s, text: localized(s, 'text', language, content) })),
  };
}

export function contentIn(content: ProjectContent, language: string): ProjectContent {
  const languages = contentLanguages(content);
  if (language === languages[0] || !languages.includes(language)) return content;
  return {
    ...content,
    questionnaires: content.questionnaires.map((qn) => ({
      ...qn,
      blocks: qn.blocks.map((b) => ({
        ...b,
        questions: b.questions.map((q) => questionIn(q, language, content)),
      })),
    })),
  };
}
