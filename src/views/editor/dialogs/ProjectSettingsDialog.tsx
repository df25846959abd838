import { useSelector } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { getTargetPlatforms } from '../../../api/lookups';
import { PROJECTS_PATH, updateProject } from '../../../api/projects';
import { api } from '../../../api/client';
import { PROJECT_NAME_MAX, PROJECT_NAME_MIN, type Project } from '../../../domain/projects';
import type { TargetPlatform } from '../../../domain/lookups';
import { useI18nContext } from '../../../i18n/i18n-react';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { SettingsForm } from '../../projects/SettingsForm';
import { Checkbox } from '../panels/controls';
import type { EditorActorRef } from './index';

// The project's own settings from the editor: its name and target platforms (PUT /project; 002 in
// the change-log), then the grp_basic and grp_reporting settings (priority: 001, the others: 013),
// reusing the projects list's form, which is read-only without project-editor.change-project-settings.

function useProject(pid: number, name: string) {
  const [project, setProject] = useState<Project | null>(null);
  const [platforms, setPlatforms] = useState<TargetPlatform[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    Promise.all([
      api.get<Project[]>(PROJECTS_PATH, { query: { search: name, pageSize: 100 } }),
      getTargetPlatforms(),
    ]).then(
      ([list, all]) => {
        setProject(list.find((p) => p.id === pid) ?? null);
        setPlatforms(all);
        setLoaded(true);
      },
      (err: unknown) => setError((err as Error).message),
    );
  }, [pid, name]);
  return { project, platforms, error, setProject, loaded };
}

export function ProjectSettingsDialog({ actor, close }: { actor: EditorActorRef; close: () => void }) {
  const { LL } = useI18nContext();
  const pid = useSelector(actor, (s) => s.context.pid);
  const startName = useSelector(actor, (s) => s.context.project?.name ?? '');
  const editable = useSelector(actor, (s) => s.context.project?.editable ?? false);
  const { project, platforms, error, setProject, loaded } = useProject(pid, startName);
  const [name, setName] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number[] | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const T = LL.panels.settings;
  const shownName = name ?? project?.name ?? startName;
  const shownPlatforms = chosen ?? project?.targetPlatformIds ?? [];
  const nameError =
    shownName.trim().length < PROJECT_NAME_MIN
      ? LL.validation.minThree()
      : shownName.length > PROJECT_NAME_MAX
        ? LL.validation.tooLong({ max: PROJECT_NAME_MAX })
        : null;

  const saveMain = async (e: FormEvent) => {
    e.preventDefault();
    if (!project || nameError) return;
    const platformsChanged =
      [...shownPlatforms].sort().join() !== [...project.targetPlatformIds].sort().join();
    try {
      const saved = await updateProject({
        id: pid,
        ...(shownName.trim() !== project.name ? { name: shownName.trim() } : {}),
        ...(platformsChanged ? { targetPlatformIds: shownPlatforms } : {}),
      });
      if (platformsChanged) actor.send({ type: 'log.record', code: '002', label: saved.name });
      setProject(saved);
      setName(null);
      setChosen(null);
      setMessage({ ok: true, text: T.savedMain() });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };

  if (error)
    return (
      <p role="alert" className="text-sm text-red-800">
        {error}
      </p>
    );
  if (!project) return <p role="status">{loaded ? LL.errors.notFound() : LL.common.loading()}</p>;
  return (
    <div className="flex flex-col gap-6" data-dialog="settings">
      <form onSubmit={saveMain} className="flex flex-col gap-3" noValidate>
        {!editable && <p className="text-sm text-slate-600">{T.editableOnly()}</p>}
        <fieldset disabled={!editable} className="flex flex-col gap-3">
          <Field
            label={T.name()}
            value={shownName}
            maxLength={PROJECT_NAME_MAX}
            error={nameError}
            onChange={(e) => setName(e.target.value)}
          />
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium text-slate-700">{T.platforms()}</legend>
            {platforms.map((p) => (
              <Checkbox
                key={p.id}
                label={p.name}
                checked={shownPlatforms.includes(p.id)}
                disabled={!editable}
                onChange={(on) =>
                  setChosen(on ? [...shownPlatforms, p.id] : shownPlatforms.filter((x) => x !== p.id))
                }
              />
            ))}
          </fieldset>
          {editable && (
            <Button type="submit" className="self-start" disabled={Boolean(nameError)}>
              {T.saveMain()}
            </Button>
          )}
        </fieldset>
        {message && (
          <p
            role={message.ok ? 'status' : 'alert'}
            className={message.ok ? 'text-sm text-green-800' : 'text-sm text-red-800'}
          >
            {message.text}
          </p>
        )}
      </form>
      <SettingsForm
        project={project}
        onDone={(saved) => {
          if (saved) actor.send({ type: 'log.record', code: '013', label: project.name });
          close();
        }}
      />
    </div>
  );
}
