import { useId } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { canChangeProjectStatus, type Project, type ProjectStatusId } from '../../domain/projects';
import { allowedTargets } from '../../domain/projectStatus';
import type { User } from '../../domain/user';
import { accessOf, ReadOnlyMark, StatusBadge, statusName } from './labels';

// A project's status: a badge for everyone, and for the Administrator a selector offering the
// current status and exactly the ones the status machine allows next.

export function StatusControl({
  project,
  me,
  onChange,
}: {
  project: Project;
  me: User;
  onChange: (to: ProjectStatusId) => void;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const targets = canChangeProjectStatus(me, accessOf(project)) ? allowedTargets(project.status) : [];
  if (targets.length === 0) {
    return (
      <>
        <StatusBadge status={project.status} />
        <ReadOnlyMark project={project} />
      </>
    );
  }
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {LL.projects.statusChange.select({ name: project.name })}
      </label>
      <select
        id={id}
        value={project.status}
        data-status={project.status}
        onChange={(e) => onChange(Number(e.target.value) as ProjectStatusId)}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs"
      >
        {[project.status, ...targets].map((s) => (
          <option key={s} value={s}>
            {statusName(LL, s)}
          </option>
        ))}
      </select>
      <ReadOnlyMark project={project} />
    </>
  );
}
