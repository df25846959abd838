import type { QuestionCategory } from '../../../domain/content/model';
import { Svg } from '../../ui/icons';

// One small picture per question category, drawn like what the respondent sees (a radio, boxes,
// a scale, stars…). Decorative: the category's name is always beside it.
const PATHS: Record<QuestionCategory, React.ReactNode> = {
  oneAnswer: (
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="3" fill="currentColor" />
    </>
  ),
  fewAnswers: (
    <>
      <rect x="4" y="4" width="7" height="7" rx="1" />
      <rect x="13" y="13" width="7" height="7" rx="1" />
      <path d="M5.5 7.5l1.5 1.5 2.5-3M14.5 16.5l1.5 1.5 2.5-3" />
    </>
  ),
  screening: <path d="M4 5h16l-6 7v6l-4 2v-8z" />,
  qualification: <path d="M4 12h10M10 6l6 6-6 6M18 5v14" />,
  fromTo: <path d="M4 12h16M4 8v8M20 8v8M9 12h0M15 12h0" />,
  open: <path d="M4 6h16v10H8l-4 4z" />,
  starRating: <path d="M12 3l2.7 5.6 6.1.8-4.5 4.2 1.1 6-5.4-3-5.4 3 1.1-6L3.2 9.4l6.1-.8z" />,
  slider: (
    <>
      <path d="M4 12h16" />
      <circle cx="14" cy="12" r="3" fill="white" />
    </>
  ),
  nps: <path d="M3 17h2v-2H3zM7 17h2v-4H7zM11 17h2V9h-2zM15 17h2V7h-2zM19 17h2V4h-2z" />,
  sortable: <path d="M8 5h12M8 12h12M8 19h12M4 4v4M3 17h2l-2 3h2" />,
  matrix: <path d="M4 4h16v16H4zM4 10h16M4 15h16M10 4v16M15 4v16" />,
  regionAuto: <path d="M4 6l5-2 6 2 5-2v14l-5 2-6-2-5 2zM9 4v14M15 6v14" />,
  cityAuto: <path d="M4 20V10l4-2v12M8 20V4h8v16M16 20V9l4 2v9M3 20h18" />,
};

export function CategoryIcon({ category, className }: { category: QuestionCategory; className?: string }) {
  return <Svg className={className ?? 'h-5 w-5'}>{PATHS[category]}</Svg>;
}
