import { hasLanguage, localizeContent, sourceLanguage } from '../../src/domain/content/languages';
import type { ProjectContent } from '../../src/domain/content/model';
import { badRequest } from '../http/errors';

// The language of a report's question and answer texts (issue 32; docs/decisions/languages.md).
// Answers are stored by id, so one set of results covers every language and only the texts differ:
// `labels=` names one of the questionnaire's languages (a 400 otherwise); without it the JSON
// report and the Compare table speak the reader's interface language when the questionnaire has
// it, and the downloads the source language, the one the questionnaire was written in.

export function textLanguage(
  content: ProjectContent,
  labels: string | undefined,
  reader: string | null,
): string {
  if (labels !== undefined) {
    if (!hasLanguage(content, labels))
      throw badRequest((t) => t.reports.errors.unknownLanguage({ code: labels }), {
        code: 'unknown-language',
        field: 'labels',
      });
    return labels;
  }
  return reader !== null && hasLanguage(content, reader) ? reader : sourceLanguage(content);
}

/** The content with its texts in `language` (the source where one has no translation). */
export const contentIn = (content: ProjectContent, language: string) => localizeContent(content, language);
