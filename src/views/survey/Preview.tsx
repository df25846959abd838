import type { ProjectContent } from '../../domain/content/model';

// The respondent page's renderer on the editor's unsaved draft, starting at the selected question,
// storing nothing. Placeholder until the runner lands; the editor loads it lazily (default export).
export interface SurveyPreviewProps {
  content: ProjectContent;
  /** Start at this question (null: the first question of the first questionnaire). */
  startQuestionId: string | null;
}

export default function SurveyPreview(_props: SurveyPreviewProps) {
  return null;
}
