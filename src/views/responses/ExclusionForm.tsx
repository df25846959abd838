import { useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { setExclusion, type ExclusionTarget } from '../../api/responses';
import { EXCLUSION_REASON_MAX, type ExclusionResult } from '../../domain/responses';
import { Button } from '../ui/Button';
import { FormError } from '../ui/FormError';
import { errorMessage } from './labels';
import { formatNumber } from '../ui/formatNumber';

// The exclude / restore dialog's form: who it acts on (a count, or "everyone this filter matches"),
// what excluding does, and the reason, required to exclude (it is kept with each respondent and
// shown in the list and the logs) and optional to restore. The call runs here, so a refusal shows
// in the dialog with the reason still typed.

export function ExclusionForm({
  pid,
  target,
  count,
  excluded,
  onDone,
  onCancel,
}: {
  pid: number;
  target: ExclusionTarget;
  count: number;
  excluded: boolean;
  onDone: (result: ExclusionResult) => void;
  onCancel: () => void;
}) {
  const { LL, locale } = useI18nContext();
  const X = LL.responses.exclusion;
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const missing = excluded && reason.trim() === '';
  const n = formatNumber(count, locale);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (missing) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await setExclusion(pid, target, excluded, reason.trim()));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <p className="text-slate-700">
        {'filter' in target
          ? excluded
            ? X.everyoneText({ count: n })
            : X.everyoneRestoreText({ count: n })
          : excluded
            ? X.text({ count: n })
            : X.restoreText({ count: n })}
      </p>
      {excluded && <p className="text-sm text-slate-600">{X.effect()}</p>}
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {excluded ? X.reason() : X.reasonOptional()}
        </label>
        <textarea
          id={id}
          data-autofocus
          rows={3}
          maxLength={EXCLUSION_REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={(touched && missing) || undefined}
          aria-describedby={touched && missing ? `${id}-error` : `${id}-hint`}
          className={`rounded border px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500 ${touched && missing ? 'border-red-500' : 'border-slate-300'}`}
        />
        {touched && missing ? (
          <p id={`${id}-error`} className="text-sm text-red-800">
            {LL.validation.required()}
          </p>
        ) : (
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            {X.reasonHint({ max: EXCLUSION_REASON_MAX })}
          </p>
        )}
      </div>
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit" variant={excluded ? 'danger' : 'primary'} disabled={busy}>
          {excluded ? X.submit({ count: n }) : X.submitRestore({ count: n })}
        </Button>
      </div>
    </form>
  );
}
