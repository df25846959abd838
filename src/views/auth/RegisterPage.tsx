import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { RegisterBody } from '../../domain/users';
import { registerResearcher } from '../../api/users';
import { ApiError } from '../../api/client';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { FormError } from '../ui/FormError';

// /register (spec section 2): email and full name create a demo researcher (POST /researcher);
// afterwards the page says that an email with instructions was sent.

type Values = { email: string; fullname: string };

export default function RegisterPage() {
  const { LL } = useI18nContext();
  const [values, setValues] = useState<Values>({ email: '', fullname: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const validate = (next = values) => {
    const result = formErrors(LL, RegisterBody, next);
    setErrors(result.ok ? {} : result.errors);
    return result;
  };
  const update = (field: keyof Values, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (touched) validate(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    const result = validate();
    if (!result.ok || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      const res = await registerResearcher(result.output.email, result.output.fullname);
      setSentTo(res.email);
    } catch (err) {
      // A taken address belongs under the email field; anything else above the button.
      if (err instanceof ApiError && err.code === 'email-exists') setErrors({ email: err.message });
      else setServerError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold text-slate-800">{LL.auth.register.sentTitle()}</h1>
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-sm text-green-800">
          {LL.auth.register.sent({ email: sentTo })}
        </p>
        <Link href="/login" className="text-sm text-indigo-700 underline">
          {LL.auth.register.toLogin()}
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="register-title">
      <h1 id="register-title" className="text-2xl font-semibold text-slate-800">
        {LL.auth.register.title()}
      </h1>
      <p className="text-sm text-slate-600">{LL.auth.register.intro()}</p>
      <Field
        label={LL.auth.register.email()}
        name="email"
        type="email"
        autoComplete="email"
        value={values.email}
        error={errors.email}
        onChange={(e) => update('email', e.target.value)}
      />
      <Field
        label={LL.auth.register.fullname()}
        name="fullname"
        autoComplete="name"
        value={values.fullname}
        error={errors.fullname}
        onChange={(e) => update('fullname', e.target.value)}
      />
      <FormError message={serverError} />
      <Button type="submit" disabled={busy}>
        {LL.auth.register.submit()}
      </Button>
      <p className="text-sm text-slate-600">
        {LL.auth.register.haveAccount()}{' '}
        <Link href="/login" className="text-indigo-700 underline">
          {LL.auth.register.toLogin()}
        </Link>
      </p>
    </form>
  );
}
