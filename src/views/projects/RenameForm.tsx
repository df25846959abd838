import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { useI18nContext } from '../../i18n/i18n-react';
import { updateProject } from '../../api/projects';
import { projectName, type Project } from '../../domain/projects';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { errorMessage } from './labels';

const RenameSchema = v.object({ name: projectName });

/** Renames a project (PUT /project); closes with the updated project, or nothing on Cancel. */
export function RenameForm({
  project,
  onDone,
}: {
  project: Project;
  onDone: (p: Project | undefined) => void;
}) {
  const { LL } = useI18nContext();
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = formErrors(LL, RenameSchema, { name });
    if (!checked.ok) return setError(checked.errors.name);
    setBusy(true);
    try {
      onDone(await updateProject({ id: project.id, name: checked.output.name }));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <Field
        label={LL.projects.rename.name()}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error}
        autoFocus
        maxLength={200}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(undefined)} disabled={busy}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit" disabled={busy}>
          {LL.common.save()}
        </Button>
      </div>
    </form>
  );
}
