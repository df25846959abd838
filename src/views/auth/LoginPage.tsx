import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { LoginBody } from '../../domain/validation';
import { Field } from '../ui/Field';
import { formErrors } from '../ui/validation';
import { useAuthState, useAuthStep } from './AuthProvider';
import { loadAuth } from './authStore';
import { FormError } from '../ui/FormError';

/** Only same-site paths are followed after sign-in, never another origin. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login')
    ? target
    : '/profile';
}

const startSignIn = () => void loadAuth().catch(() => {});

export default function LoginPage() {
  const { LL } = useI18nContext();
  const state = useAuthStep();
  const serverError = useAuthState((s) => s.context.error, null);
  const [, navigate] = useLocation();
  const search = useSearch();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (state === 'authenticated')
      navigate(safeRedirect(new URLSearchParams(search).get('redirectedFrom')), { replace: true });
  }, [state, search, navigate]);

  const validate = (next = values) => {
    const result = formErrors(LL, LoginBody, next);
    setErrors(result.ok ? {} : result.errors);
    return result;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    const result = validate();
    if (result.ok) {
      const { email, password } = result.output;
      // Ready since the form was first touched (below); a failed chunk load leaves the form as it is.
      loadAuth().then(
        (actor) => actor.send({ type: 'auth.login', email, password }),
        () => {},
      );
    }
  };

  const update = (field: 'email' | 'password', value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (touched) validate(next);
  };

  const busy = state === 'signingIn';
  return (
    // The sign-in actor (xstate) loads when the visitor starts to sign in, not with the page.
    <form
      onSubmit={submit}
      onFocus={startSignIn}
      onPointerDown={startSignIn}
      noValidate
      className="flex flex-col gap-4"
      aria-labelledby="login-title"
    >
      <h1 id="login-title" className="text-2xl font-semibold text-slate-800">
        {LL.auth.login.title()}
      </h1>
      <Field
        label={LL.auth.login.email()}
        name="email"
        type="email"
        autoComplete="username"
        value={values.email}
        error={errors.email}
        onChange={(e) => update('email', e.target.value)}
      />
      <Field
        label={LL.auth.login.password()}
        name="password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => update('password', e.target.value)}
      />
      <FormError message={busy ? null : serverError} />
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
      >
        {LL.auth.login.submit()}
      </button>
      <Link href="/invitations" className="-mt-2 self-start text-sm text-indigo-700 underline">
        {LL.auth.login.forgot()}
      </Link>
      <p className="text-sm text-slate-600">
        {LL.auth.login.noAccount()}{' '}
        <Link href="/register" className="text-indigo-700 underline">
          {LL.auth.login.register()}
        </Link>
      </p>
    </form>
  );
}
