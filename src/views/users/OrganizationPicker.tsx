import { useEffect, useId, useState, type FormEvent } from 'react';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useI18nContext } from '../../i18n/i18n-react';
import { createOrganization, findOrganizations } from '../../api/organizations';
import {
  ORGANIZATION_TYPES,
  OrganizationCreateBody,
  organizationNameKey,
  type OrganizationTypeId,
} from '../../domain/organizations';
import type { Category } from '../../domain/organizations';
import { formErrors } from '../ui/validation';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { orgTypeName } from './labels';

// Picks an organization by typing part of its name (searched on the server, 20 at a time), or
// creates one in place when none fits. Creation happens inside the same form because modals are
// queued one at a time: a second dialog would only open after this one closed.

export interface PickedOrganization {
  id: number;
  name: string;
}

const CREATE = -1;

export function OrganizationPicker({
  value,
  onChange,
  error,
  categories,
  defaultType,
}: {
  value: PickedOrganization | null;
  onChange: (org: PickedOrganization | null) => void;
  error?: string;
  categories: Category[];
  defaultType: OrganizationTypeId;
}) {
  const { LL } = useI18nContext();
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<PickedOrganization[]>([]);
  const [creating, setCreating] = useState<string | null>(null);
  const errorId = useId();

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      findOrganizations({ search: query.trim(), signal: controller.signal }).then(
        (page) => setOptions(page.items.map((o) => ({ id: o.id, name: o.name }))),
        () => {},
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const trimmed = query.trim();
  const exact = options.some((o) => organizationNameKey(o.name) === organizationNameKey(trimmed));

  const select = (org: PickedOrganization | null) => {
    if (org?.id === CREATE) {
      setCreating(trimmed);
      return;
    }
    onChange(org);
    setQuery('');
  };

  if (creating !== null) {
    return (
      <NewOrganization
        initialName={creating}
        categories={categories}
        defaultType={defaultType}
        onCancel={() => setCreating(null)}
        onCreated={(org) => {
          setCreating(null);
          onChange(org);
        }}
      />
    );
  }

  return (
    <Field className="flex flex-col gap-1">
      <Label className="text-sm font-medium text-slate-700">{LL.people.form.organization()}</Label>
      <Combobox value={value} onChange={select} by="id">
        <ComboboxInput
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder={LL.people.form.organizationSearch()}
          className={`rounded border px-3 py-2 outline-none focus:ring-2 focus:ring-indigo-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
          displayValue={(o: PickedOrganization | null) => o?.name ?? ''}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ComboboxOptions className="max-h-48 overflow-auto rounded border border-slate-200 bg-white text-sm shadow empty:invisible">
          {options.map((o) => (
            <ComboboxOption
              key={o.id}
              value={o}
              className="cursor-pointer px-3 py-1.5 data-[focus]:bg-indigo-50 data-[selected]:font-semibold"
            >
              {o.name}
            </ComboboxOption>
          ))}
          {trimmed && !exact && (
            <ComboboxOption
              value={{ id: CREATE, name: trimmed }}
              className="cursor-pointer border-t border-slate-100 px-3 py-1.5 text-indigo-700 data-[focus]:bg-indigo-50"
            >
              {LL.people.form.organizationCreate({ name: trimmed })}
            </ComboboxOption>
          )}
        </ComboboxOptions>
      </Combobox>
      {value && (
        <button
          type="button"
          className="self-start text-xs text-slate-600 underline"
          onClick={() => onChange(null)}
        >
          {LL.people.form.organizationNone()}
        </button>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      )}
    </Field>
  );
}

function NewOrganization({
  initialName,
  categories,
  defaultType,
  onCancel,
  onCreated,
}: {
  initialName: string;
  categories: Category[];
  defaultType: OrganizationTypeId;
  onCancel: () => void;
  onCreated: (org: PickedOrganization) => void;
}) {
  const { LL } = useI18nContext();
  const [name, setName] = useState(initialName);
  const [type, setType] = useState<OrganizationTypeId>(defaultType);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), type: useId(), category: useId() };

  // A nested form would submit the outer one; this block runs on its own button instead.
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const result = formErrors(LL, OrganizationCreateBody, { name, type, categoryId });
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok || busy) return;
    setBusy(true);
    try {
      const org = await createOrganization(result.output);
      notify.success(LL.people.notify.organizationCreated({ name: org.name }));
      onCreated({ id: org.id, name: org.name });
    } catch (err) {
      setErrors({ name: err instanceof Error ? err.message : String(err) });
      setBusy(false);
    }
  };

  return (
    <fieldset className="flex flex-col gap-2 rounded border border-indigo-200 bg-indigo-50/40 p-3">
      <legend className="px-1 text-sm font-medium text-slate-700">{LL.people.form.organizationNew()}</legend>
      <label htmlFor={ids.name} className="text-sm text-slate-700">
        {LL.people.form.organizationName()}
      </label>
      <input
        id={ids.name}
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void submit();
          }
        }}
        aria-invalid={errors.name ? true : undefined}
        className={`rounded border px-3 py-2 outline-none focus:ring-2 focus:ring-indigo-500 ${errors.name ? 'border-red-500' : 'border-slate-300'}`}
      />
      {errors.name && <p className="text-sm text-red-800">{errors.name}</p>}
      <label htmlFor={ids.type} className="text-sm text-slate-700">
        {LL.people.form.organizationType()}
      </label>
      <select
        id={ids.type}
        value={type}
        onChange={(e) => setType(Number(e.target.value) as OrganizationTypeId)}
        className="rounded border border-slate-300 px-3 py-2"
      >
        {ORGANIZATION_TYPES.map((t) => (
          <option key={t.id} value={t.id}>
            {orgTypeName(LL, t.id)}
          </option>
        ))}
      </select>
      <label htmlFor={ids.category} className="text-sm text-slate-700">
        {LL.people.form.category()}
      </label>
      <select
        id={ids.category}
        value={categoryId ?? ''}
        onChange={(e) => setCategoryId(e.target.value ? Number(e.target.value) : null)}
        className="rounded border border-slate-300 px-3 py-2"
      >
        <option value="">{LL.people.form.categoryNone()}</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {LL.common.cancel()}
        </Button>
        <Button onClick={() => void submit()} disabled={busy}>
          {LL.common.create()}
        </Button>
      </div>
    </fieldset>
  );
}
