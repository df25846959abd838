import { useEffect, useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { ApiError, api } from '../../api/client';
import { createProject, getTemplates } from '../../api/projects';
import {
  CreateProjectBody,
  PRIORITY_MAX,
  PRIORITY_MIN,
  type Project,
  type ProjectTemplate,
} from '../../domain/projects';
import { TARGET_PLATFORMS } from '../../domain/lookups';
import { can } from '../../domain/permissions';
import { Role } from '../../domain/roles';
import type { TemplateInfo } from '../../domain/templates';
import { useCurrentUser } from '../auth/AuthProvider';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { errorMessage } from './labels';

// The "new project" form: a template (from GET /project/templates, so a role sees only what it may
// use), a name, and where it applies the priority, the organization (an Administrator names it) and
// the target platforms. Validated with the same schema as the server before sending.

type Errors = Record<string, string>;

export function CreateProjectForm({ onDone }: { onDone: (created: Project | undefined) => void }) {
  const { LL } = useI18nContext();
  const me = useCurrentUser();
  const isAdmin = me?.role.id === Role.Administrator;
  const mayPrioritize = can(me?.role.id, 'project-editor.change-project-settings');
  const [templates, setTemplates] = useState<TemplateInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [template, setTemplate] = useState<ProjectTemplate | ''>('');
  const [name, setName] = useState('');
  const [priority, setPriority] = useState('0');
  const [organizationId, setOrganizationId] = useState<number | null>(me?.organization?.id ?? null);
  const [platforms, setPlatforms] = useState<number[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const templateErrorId = useId();

  useEffect(() => {
    getTemplates().then(
      (list) => {
        setTemplates(list);
        if (list.length > 0) setTemplate(list[0].id);
      },
      (err: unknown) => setLoadError(errorMessage(err)),
    );
  }, []);

  const chosen = templates?.find((t) => t.id === template);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      name,
      template,
      ...(mayPrioritize ? { priority: Number(priority) } : {}),
      ...(isAdmin && organizationId !== null ? { organizationId } : {}),
      targetPlatformIds: chosen?.directLink ? [] : platforms,
    };
    const checked = formErrors(LL, CreateProjectBody, body);
    const found: Errors = checked.ok ? {} : { ...checked.errors };
    if (isAdmin && organizationId === null) found.organizationId = LL.projects.errors.organizationRequired();
    setErrors(found);
    if (!checked.ok || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const created = await createProject(checked.output);
      onDone(created);
    } catch (err) {
      const field = err instanceof ApiError ? (err.body as { field?: string } | null)?.field : undefined;
      setErrors({ [field ?? 'form']: errorMessage(err) });
      setBusy(false);
    }
  };

  if (loadError)
    return (
      <p role="alert" className="text-red-800">
        {loadError}
      </p>
    );
  if (!templates) return <p role="status">{LL.common.loading()}</p>;
  if (templates.length === 0) return <p role="status">{LL.projects.create.noTemplates()}</p>;

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <fieldset aria-describedby={errors.template ? templateErrorId : undefined}>
        <legend className="mb-2 text-sm font-medium text-slate-700">{LL.projects.create.template()}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {templates.map((t) => (
            <label
              key={t.id}
              className={`flex cursor-pointer gap-2 rounded-md border p-3 text-sm ${template === t.id ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50'}`}
            >
              <input
                type="radio"
                name="template"
                value={t.id}
                checked={template === t.id}
                onChange={() => setTemplate(t.id)}
                className="mt-1"
              />
              <span>
                <span className="block font-medium text-slate-800">{t.name}</span>
                <span className="block text-slate-700">{t.description}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.template && (
          <p id={templateErrorId} className="mt-1 text-sm text-red-800">
            {errors.template}
          </p>
        )}
      </fieldset>

      <Field
        label={LL.projects.create.name()}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        autoFocus
        maxLength={200}
      />

      {mayPrioritize && (
        <Field
          label={LL.projects.create.priority()}
          type="number"
          min={PRIORITY_MIN}
          max={PRIORITY_MAX}
          value={priority}
          onChange={(e) => setPriority(e.target.value)}
          error={errors.priority}
        />
      )}

      {isAdmin && (
        <OrganizationSelect
          value={organizationId}
          onChange={setOrganizationId}
          error={errors.organizationId}
        />
      )}

      {chosen && !chosen.directLink && (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700">
            {LL.projects.create.platforms()}
          </legend>
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
        </fieldset>
      )}

      {errors.form && (
        <p role="alert" className="text-sm text-red-800">
          {errors.form}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(undefined)} disabled={busy}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? LL.common.loading() : LL.projects.create.submit()}
        </Button>
      </div>
    </form>
  );
}

/** The Administrator's choice of organization: type to narrow, then pick (searched on the server). */
function OrganizationSelect({
  value,
  onChange,
  error,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<{ id: number; name: string }[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .list<{ id: number; name: string }>('/organizations', {
          query: { search: search.trim(), pageSize: 50, sort: 'name' },
          signal: controller.signal,
        })
        .then(
          (page) => setOptions(page.items),
          () => {},
        );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search]);

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
        {LL.common.search()}: {LL.projects.create.organization()}
      </label>
      <input
        id={searchId}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="rounded border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500"
      />
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {LL.projects.create.organization()}
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        aria-invalid={error ? true : undefined}
        className={`rounded border px-3 py-2 text-sm ${error ? 'border-red-500' : 'border-slate-300'}`}
      >
        <option value="">{LL.projects.create.chooseOrganization()}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {error && <p className="text-sm text-red-800">{error}</p>}
    </div>
  );
}
