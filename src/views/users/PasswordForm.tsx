import { useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { User } from '../../domain/user';
import { NewPasswordForm } from '../../domain/users';
import { setUserPassword } from '../../api/users';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { notify } from '../ui/toast';
import { FormError } from '../ui/FormError';

/** The administrator sets a new password for a user (PUT /user/password-reset); their sessions end. */
export function PasswordForm({ user, onDone }: { user: User; onDone: () => void }) {
  const { LL } = useI18nContext();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = formErrors(LL, NewPasswordForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      await setUserPassword(user.id, values.password);
      notify.success(LL.people.notify.passwordSet({ email: user.email }));
      onDone();
    } catch (err) {
      setServerError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field
        label={LL.people.form.password()}
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
      />
      <Field
        label={LL.people.form.passwordConfirm()}
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        error={errors.confirm}
        onChange={(e) => setValues({ ...values, confirm: e.target.value })}
      />
      <FormError message={serverError} />
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {LL.people.form.submitPassword()}
        </Button>
      </div>
    </form>
  );
}
