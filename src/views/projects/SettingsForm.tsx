import { useEffect, useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import {
  getProjectSettings,
  getSettingDefinitions,
  getSettingsGroups,
  saveProjectSettings,
  type ProjectSettingsAnswer,
} from '../../api/projects';
import {
  ProjectSettingsBody,
  type ProjectSettingsValues,
  type SettingInfo,
  type SettingsGroupInfo,
} from '../../domain/projectSettings';
import type { Project } from '../../domain/projects';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { errorMessage } from './labels';

// Project settings by group (GET /project/settings, /project/settings-groups and the project's
// values). Read-only when the server says the caller may not change them (canChange), so the form
// never offers what POST /project/project-settings would refuse.

export function SettingsForm({ project, onDone }: { project: Project; onDone: (saved: boolean) => void }) {
  const { LL } = useI18nContext();
  const [defs, setDefs] = useState<SettingInfo[] | null>(null);
  const [groups, setGroups] = useState<SettingsGroupInfo[]>([]);
  const [answer, setAnswer] = useState<ProjectSettingsAnswer | null>(null);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  useEffect(() => {
    Promise.all([getSettingDefinitions(), getSettingsGroups(), getProjectSettings(project.id)]).then(
      ([d, g, a]) => {
        setDefs(d);
        setGroups(g);
        setAnswer(a);
        setValues({
          ...a.settings,
          set_priority: String(a.settings.set_priority),
          set_speeder_percent: String(a.settings.set_speeder_percent),
        });
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [project.id]);

  if (error && !defs)
    return (
      <p role="alert" className="text-red-800">
        {error}
      </p>
    );
  if (!defs || !answer) return <p role="status">{LL.common.loading()}</p>;
  const readOnly = !answer.canChange;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const settings: Partial<ProjectSettingsValues> = {};
    for (const d of defs) {
      const value = d.kind === 'integer' ? Number(values[d.key]) : values[d.key] === true;
      if (value !== answer.settings[d.key]) Object.assign(settings, { [d.key]: value });
    }
    if (Object.keys(settings).length === 0) return onDone(false);
    const checked = formErrors(LL, ProjectSettingsBody, { pid: project.id, settings });
    if (!checked.ok) return setFieldError(Object.values(checked.errors)[0]);
    setBusy(true);
    try {
      await saveProjectSettings(project.id, checked.output.settings);
      onDone(true);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {readOnly && (
        <p role="status" className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-700">
          {LL.projects.settingsDialog.readOnly()}
        </p>
      )}
      {groups.map((g) => (
        <fieldset key={g.key} className="flex flex-col gap-3" disabled={readOnly || busy}>
          <legend className="mb-1 text-sm font-semibold text-slate-800">{g.name}</legend>
          {defs
            .filter((d) => d.group === g.key)
            .map((d) =>
              d.kind === 'integer' ? (
                <div key={d.key}>
                  <Field
                    label={d.name}
                    type="number"
                    min={d.min}
                    max={d.max}
                    value={String(values[d.key] ?? '')}
                    onChange={(e) => setValues((v) => ({ ...v, [d.key]: e.target.value }))}
                    error={fieldError}
                  />
                  <p className="mt-1 text-xs text-slate-600">{d.description}</p>
                </div>
              ) : (
                <label key={d.key} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={values[d.key] === true}
                    onChange={(e) => setValues((v) => ({ ...v, [d.key]: e.target.checked }))}
                  />
                  <span>
                    <span className="block font-medium text-slate-800">{d.name}</span>
                    <span className="block text-xs text-slate-600">{d.description}</span>
                  </span>
                </label>
              ),
            )}
        </fieldset>
      ))}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(false)} disabled={busy}>
          {readOnly ? LL.common.close() : LL.common.cancel()}
        </Button>
        {!readOnly && (
          <Button type="submit" disabled={busy}>
            {LL.common.save()}
          </Button>
        )}
      </div>
    </form>
  );
}
