import type { TranslationFunctions } from '../../i18n/i18n-types';
import { useI18nContext } from '../../i18n/i18n-react';
import {
  ProjectStatus,
  type Project,
  type ProjectStatusId,
  type ProjectTemplate,
  type ProjectTypeId,
} from '../../domain/projects';

// Names, badges and formats shared by the projects and reports pages.

export const statusName = (LL: TranslationFunctions, id: ProjectStatusId) =>
  LL.projects.status[String(id) as '1']();
export const typeName = (LL: TranslationFunctions, id: ProjectTypeId) =>
  LL.projects.type[String(id) as '1']();
export const templateName = (LL: TranslationFunctions, id: ProjectTemplate) =>
  LL.projects.templates[id].name();

const COLORS: Record<ProjectStatusId, string> = {
  [ProjectStatus.Created]: 'bg-slate-100 text-slate-700 ring-slate-300',
  [ProjectStatus.OnModeration]: 'bg-amber-50 text-amber-900 ring-amber-200',
  [ProjectStatus.OnModerationVK]: 'bg-amber-50 text-amber-900 ring-amber-200',
  [ProjectStatus.OnModerationAuto]: 'bg-amber-50 text-amber-900 ring-amber-200',
  [ProjectStatus.Rejected]: 'bg-red-50 text-red-800 ring-red-200',
  [ProjectStatus.OnRotation]: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  [ProjectStatus.Paused]: 'bg-sky-50 text-sky-800 ring-sky-200',
  [ProjectStatus.Stopped]: 'bg-slate-100 text-slate-700 ring-slate-300',
  [ProjectStatus.SurveyFinished]: 'bg-violet-50 text-violet-800 ring-violet-200',
  [ProjectStatus.CreatingReport]: 'bg-violet-50 text-violet-800 ring-violet-200',
  [ProjectStatus.ProjectFinished]: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
};

export function StatusBadge({ status }: { status: ProjectStatusId }) {
  const { LL } = useI18nContext();
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${COLORS[status]}`}
    >
      {statusName(LL, status)}
    </span>
  );
}

/** "Read-only" next to the status of a project the viewer cannot edit. */
export function ReadOnlyMark({ project }: { project: Project }) {
  const { LL } = useI18nContext();
  if (project.editable) return null;
  return <span className="ml-2 whitespace-nowrap text-xs text-slate-600">{LL.projects.list.readOnly()}</span>;
}

const dates = new Map<string, Intl.DateTimeFormat>();
export function formatDate(locale: string, ms: number): string {
  let f = dates.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dates.set(locale, f);
  }
  return f.format(ms);
}

/** The message of a failed call (an ApiError's is already translated by the client). */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The shape the access rules of src/domain/projects.ts take. */
export const accessOf = (p: Project) => ({ organizationId: p.organization.id, status: p.status });
