import { useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { LookupCreateBody, type LookupItem } from '../../domain/games';
import { ApiError } from '../../api/client';
import { formErrors } from '../ui/validation';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { errorMessage } from './format';

// A labelled select over a lookup list (genres, platforms, currencies) with, when `create` is
// given, a way to add a missing value in place: the form is already in a modal, and modals queue.
export function LookupSelect({
  label,
  value,
  onChange,
  items,
  error,
  create,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  items: { id: number; name: string }[];
  error?: string;
  create?: {
    label: string;
    nameLabel: string;
    added: (name: string) => string;
    call: (name: string) => Promise<LookupItem>;
    onCreated: (item: LookupItem) => void;
  };
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const newId = useId();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const add = async () => {
    if (!create || busy) return;
    const checked = formErrors(LL, LookupCreateBody, { name });
    if (!checked.ok) {
      setNameError(checked.errors.name);
      return;
    }
    setBusy(true);
    try {
      const item = await create.call(checked.output.name);
      create.onCreated(item);
      onChange(String(item.id));
      notify.success(create.added(item.name));
      setAdding(false);
      setName('');
      setNameError(undefined);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setNameError(err.message);
      else notify.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`min-w-0 flex-1 rounded border bg-white px-3 py-2 outline-none focus:ring-2 focus:ring-indigo-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
        >
          <option value="">{LL.games.form.choose()}</option>
          {items.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </select>
        {create && !adding && (
          <Button variant="ghost" onClick={() => setAdding(true)}>
            {create.label}
          </Button>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-800">
          {error}
        </p>
      )}
      {create && adding && (
        <div className="mt-1 flex flex-col gap-1 rounded border border-indigo-200 bg-indigo-50/40 p-2">
          <label htmlFor={newId} className="text-sm text-slate-700">
            {create.nameLabel}
          </label>
          <div className="flex gap-2">
            <input
              id={newId}
              value={name}
              autoFocus
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                // Enter adds the value; it must not submit the game form around it.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void add();
                }
              }}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${newId}-error` : undefined}
              className={`min-w-0 flex-1 rounded border px-3 py-1.5 outline-none focus:ring-2 focus:ring-indigo-500 ${nameError ? 'border-red-500' : 'border-slate-300'}`}
            />
            <Button onClick={() => void add()} disabled={busy}>
              {LL.games.form.addLookup()}
            </Button>
            <Button variant="secondary" onClick={() => setAdding(false)}>
              {LL.common.cancel()}
            </Button>
          </div>
          {nameError && (
            <p id={`${newId}-error`} className="text-sm text-red-800">
              {nameError}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
