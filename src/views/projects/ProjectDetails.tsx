import { useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { updateProject } from '../../api/projects';
import { TARGET_PLATFORMS } from '../../domain/lookups';
import type { Project } from '../../domain/projects';
import { Button } from '../ui/Button';
import { errorMessage, formatDate, StatusBadge, templateName, typeName } from './labels';

// Everything the list knows about one project, whether it can be edited now, and its target
// platforms: changeable here while the project is editable (PUT /project), shown otherwise.

export function ProjectDetails({
  project,
  onDone,
}: {
  project: Project;
  onDone: (changed: boolean) => void;
}) {
  const { LL, locale } = useI18nContext();
  const [platforms, setPlatforms] = useState<number[]>(project.targetPlatformIds);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = [...platforms].sort().join() !== [...project.targetPlatformIds].sort().join();

  const save = async () => {
    setBusy(true);
    try {
      await updateProject({ id: project.id, targetPlatformIds: platforms });
      onDone(true);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  const rows: [string, React.ReactNode][] = [
    [LL.projects.columns.name(), project.name],
    [LL.projects.columns.organization(), project.organization.name],
    [LL.projects.columns.template(), templateName(LL, project.template)],
    [LL.projects.columns.type(), typeName(LL, project.type)],
    [LL.projects.columns.priority(), project.priority],
    [LL.projects.columns.createdAt(), formatDate(locale, project.createdAt)],
    [LL.projects.columns.status(), <StatusBadge key="s" status={project.status} />],
    [
      LL.projects.details.editable(),
      project.editable ? LL.projects.details.editableYes() : LL.projects.details.editableNo(),
    ],
  ];

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      <fieldset disabled={!project.editable || busy}>
        <legend className="mb-2 text-sm font-medium text-slate-700">{LL.projects.details.platforms()}</legend>
        {project.editable ? (
          <div className="grid grid-cols-2 gap-1 text-sm sm:grid-cols-3">
            {TARGET_PLATFORMS.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={platforms.includes(p.id)}
                  onChange={(e) =>
                    setPlatforms((list) =>
                      e.target.checked ? [...list, p.id] : list.filter((x) => x !== p.id),
                    )
                  }
                />
                {LL.projects.platforms[p.code]()}
              </label>
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-800">
            {project.targetPlatformIds.length === 0
              ? LL.projects.details.none()
              : TARGET_PLATFORMS.filter((p) => project.targetPlatformIds.includes(p.id))
                  .map((p) => LL.projects.platforms[p.code]())
                  .join(', ')}
          </p>
        )}
      </fieldset>
      {error && (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(false)} disabled={busy}>
          {LL.common.close()}
        </Button>
        {project.editable && (
          <Button onClick={save} disabled={busy || !changed}>
            {LL.common.save()}
          </Button>
        )}
      </div>
    </div>
  );
}
