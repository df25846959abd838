import { useCallback, useMemo, useState } from 'react';
import type { ProjectContent } from '../../domain/content/model';
import type { Reply } from '../../domain/flow';
import { findCities } from '../../api/lookups';
import { useI18nContext } from '../../i18n/i18n-react';
import { EndPage, Message, Runner, type EndKind, type SubmitAnswer } from './Runner';
import { TextsContext } from './Texts';
import { SURVEY_TEXTS, interfaceLocale } from '../../i18n/survey';
import { localizeContent } from '../../domain/content/languages';
import type { PlaceOption } from './Place';

// The editor's preview: the respondent's runner on the unsaved draft, from the selected question,
// storing nothing. The same Runner and flow as /s/:token, so what the researcher sees is what
// respondents get.
export interface SurveyPreviewProps {
  content: ProjectContent;
  /** Start at this question (null: the first question of the first questionnaire). */
  startQuestionId: string | null;
  /**
   * The questionnaire language to preview in (issue 32; one of `content.languages`): its texts, the
   * source where a text has no translation yet, and the interface in that language (English where
   * the page has no dictionary for it), as a respondent would see it. Absent: the source language
   * with the editor's interface language.
   */
  language?: string | null;
}

const keep = async (): Promise<SubmitAnswer> => ({ ok: true, end: null });

/** The preview's lookup: the editor's GET /cities (signed in), narrowed to a city question's region. */
export async function previewPlaces(
  kind: 'city' | 'region',
  search: string,
  signal: AbortSignal,
  region?: string,
): Promise<PlaceOption[]> {
  const cities = await findCities({ search, limit: 20, ...(region && { region }) }, signal);
  if (kind === 'city') return cities.map((c) => ({ id: c.id, name: c.name, detail: c.region.name }));
  const seen = new Map<string, PlaceOption>();
  for (const c of cities)
    if (!seen.has(c.region.id)) seen.set(c.region.id, { id: c.region.id, name: c.region.name, detail: '' });
  return [...seen.values()];
}

export default function SurveyPreview({ content: source, startQuestionId, language }: SurveyPreviewProps) {
  const { locale: editorLocale } = useI18nContext();
  const locale = language ? interfaceLocale(language) : editorLocale === 'en' ? 'en' : 'ru';
  const s = SURVEY_TEXTS[locale];
  const content = useMemo(() => (language ? localizeContent(source, language) : source), [source, language]);
  const [run, setRun] = useState(0);
  const [end, setEnd] = useState<EndKind | null>(null);
  const start = useMemo(() => {
    const qn =
      content.questionnaires.find((x) =>
        x.blocks.some((b) => b.questions.some((q) => q.id === startQuestionId)),
      ) ?? content.questionnaires[0];
    return qn ? { questionnaireId: qn.id, questionId: startQuestionId, seed: `preview-${run}` } : null;
  }, [content, startQuestionId, run]);
  const onEnd = useCallback((e: EndKind) => setEnd(e), []);
  const restart = () => {
    setEnd(null);
    setRun((r) => r + 1);
  };
  const hasQuestion = content.questionnaires.some((qn) => qn.blocks.some((b) => b.questions.length > 0));
  const submit = keep as (at: number, questionId: string, reply: Reply) => Promise<SubmitAnswer>;

  return (
    <TextsContext.Provider value={{ locale, s }}>
      <div className="flex flex-col gap-3 bg-slate-50 p-3" lang={language ?? locale}>
        <div className="flex items-center justify-between gap-2 text-sm text-slate-700">
          <span>{s.previewNote}</span>
          <button
            type="button"
            className="rounded-md border border-slate-400 bg-white px-3 py-1 font-medium"
            onClick={restart}
          >
            {s.restart}
          </button>
        </div>
        <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
          {!start || !hasQuestion ? (
            <Message title={s.title} text={s.previewEmpty} />
          ) : end ? (
            <EndPage kind={end} />
          ) : (
            <Runner
              key={`${run}:${startQuestionId}`}
              content={content}
              start={start}
              initialReplies={[]}
              submit={submit}
              findPlaces={previewPlaces}
              onEnd={onEnd}
            />
          )}
        </div>
      </div>
    </TextsContext.Provider>
  );
}
