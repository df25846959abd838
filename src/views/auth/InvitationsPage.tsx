import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { ForgotPasswordBody, NewPasswordForm, type InvitationInfo } from '../../domain/users';
import { confirmInvitation, requestPasswordReset, setPasswordByToken } from '../../api/users';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { useAuthStep } from './AuthProvider';
import { loadAuth } from './authStore';
import { FormError } from '../ui/FormError';

// /invitations (spec section 2: account confirmation and password setting). A mailed link carries
// ?token=…: the page confirms it (POST /invitations/confirm), asks for a password
// (POST /user/password-reset with the token) and signs the user in. Without a token it offers to
// mail a link for a new password ("Forgot your password?" on the login page leads here).

type Step =
  | { kind: 'checking' }
  | { kind: 'failed'; message: string; retry: boolean }
  | { kind: 'password'; info: InvitationInfo }
  | { kind: 'done'; email: string };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const isNetwork = (err: unknown) => (err as { status?: number })?.status === 0;

export default function InvitationsPage() {
  const search = useSearch();
  const token = new URLSearchParams(search).get('token');
  return token === null ? <RequestLink /> : <ConfirmAndSetPassword token={token} />;
}

function ConfirmAndSetPassword({ token }: { token: string }) {
  const { LL } = useI18nContext();
  const [step, setStep] = useState<Step>({ kind: 'checking' });

  const check = useCallback(() => {
    if (!token.trim()) {
      setStep({ kind: 'failed', message: LL.errors.invalidConfirmationLink(), retry: false });
      return;
    }
    setStep({ kind: 'checking' });
    confirmInvitation(token).then(
      (info) => setStep({ kind: 'password', info }),
      (err: unknown) => setStep({ kind: 'failed', message: errorText(err), retry: isNetwork(err) }),
    );
  }, [token, LL]);
  useEffect(check, [check]);

  const title =
    step.kind === 'password' && step.info.purpose === 'reset'
      ? LL.auth.invitations.resetTitle()
      : LL.auth.invitations.title();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-slate-800">{title}</h1>
      {step.kind === 'checking' && (
        <div role="status" className="flex flex-col gap-2 text-slate-600">
          {LL.auth.invitations.checking()}
          <div
            role="progressbar"
            aria-label={LL.auth.invitations.checking()}
            className="h-1 overflow-hidden rounded bg-indigo-100"
          >
            <div className="h-full w-1/3 animate-pulse bg-indigo-700" />
          </div>
        </div>
      )}
      {step.kind === 'failed' && (
        <>
          <FormError message={step.message} />
          {step.retry && (
            <Button variant="secondary" onClick={check}>
              {LL.auth.invitations.retry()}
            </Button>
          )}
          <Link href="/login" className="text-sm text-indigo-700 underline">
            {LL.auth.invitations.toLogin()}
          </Link>
        </>
      )}
      {step.kind === 'password' && (
        <PasswordForm token={token} info={step.info} onDone={(email) => setStep({ kind: 'done', email })} />
      )}
      {step.kind === 'done' && <SigningIn />}
    </div>
  );
}

function PasswordForm({
  token,
  info,
  onDone,
}: {
  token: string;
  info: InvitationInfo;
  onDone: (email: string) => void;
}) {
  const { LL } = useI18nContext();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const validate = (next = values) => {
    const result = formErrors(LL, NewPasswordForm, next);
    setErrors(result.ok ? {} : result.errors);
    return result;
  };
  const update = (field: 'password' | 'confirm', value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (touched) validate(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!validate().ok || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      await setPasswordByToken(token, values.password);
      onDone(info.email);
      // Signed out (the usual case): sign the new user straight in. Someone else signed in on this
      // browser stays signed in; the page then offers the login link.
      // The sign-in actor loads here on a signed-out visit (authStore.ts).
      void loadAuth().then(
        (actor) => {
          if (actor.getSnapshot().matches('anonymous'))
            actor.send({ type: 'auth.login', email: info.email, password: values.password });
        },
        () => {},
      );
    } catch (err) {
      setServerError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <p className="text-slate-700">
        {info.purpose === 'reset'
          ? LL.auth.invitations.resetFor({ email: info.email })
          : LL.auth.invitations.confirmed({ email: info.email })}
      </p>
      {/* Lets password managers store the new password under the right account. */}
      <input type="email" name="email" autoComplete="username" value={info.email} readOnly hidden />
      <Field
        label={LL.auth.invitations.password()}
        name="password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => update('password', e.target.value)}
      />
      <p className="-mt-2 text-xs text-slate-600">{LL.auth.invitations.passwordHint()}</p>
      <Field
        label={LL.auth.invitations.passwordConfirm()}
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        error={errors.confirm}
        onChange={(e) => update('confirm', e.target.value)}
      />
      <FormError message={serverError} />
      <Button type="submit" disabled={busy}>
        {LL.auth.invitations.submit()}
      </Button>
    </form>
  );
}

/** After the password is set: follows the sign-in to the profile, or offers the login page. */
function SigningIn() {
  const { LL } = useI18nContext();
  const state = useAuthStep();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (state === 'authenticated') navigate('/profile', { replace: true });
  }, [state, navigate]);
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="rounded bg-green-50 px-3 py-2 text-sm text-green-800">
        {LL.auth.invitations.done()}
      </p>
      <Link href="/login" className="text-sm text-indigo-700 underline">
        {LL.auth.invitations.toLogin()}
      </Link>
    </div>
  );
}

function RequestLink() {
  const { LL } = useI18nContext();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = formErrors(LL, ForgotPasswordBody, { email });
    setError(result.ok ? undefined : result.errors.email);
    if (!result.ok || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      await requestPasswordReset(result.output.email);
      setSentTo(result.output.email);
    } catch (err) {
      setServerError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-slate-800">{LL.auth.forgot.title()}</h1>
      {sentTo ? (
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-sm text-green-800">
          {LL.auth.forgot.sent({ email: sentTo })}
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-600">{LL.auth.forgot.intro()}</p>
          <Field
            label={LL.auth.forgot.email()}
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            error={error}
            onChange={(e) => setEmail(e.target.value)}
          />
          <FormError message={serverError} />
          <Button type="submit" disabled={busy}>
            {LL.auth.forgot.submit()}
          </Button>
        </form>
      )}
      <Link href="/login" className="text-sm text-indigo-700 underline">
        {LL.auth.forgot.toLogin()}
      </Link>
    </div>
  );
}
