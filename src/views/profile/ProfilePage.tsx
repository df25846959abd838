import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, ApiError } from '../../api/client';
import { ChangePasswordForm, confirmIssue } from '../../domain/profile';
import { USER_STATUSES } from '../../domain/roles';
import { useI18nContext } from '../../i18n/i18n-react';
import { useAuthActor, useCurrentUser } from '../auth/AuthProvider';
import { roleLabel } from '../shell/roles';
import { signOutEverywhereInTab } from '../shell/logout';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { PageHeader } from '../ui/PageHeader';
import { notify } from '../ui/toast';
import { formErrors } from '../ui/validation';
import { useCategories } from '../users/useCategories';

// The profile (spec section 2): the signed-in user's data and a change-password form. Errors show
// after the first submit and then follow the typing; what the server refuses is shown as it said it.

const STATUS_KEYS = ['created', 'invitationSent', 'invitationAccepted', 'activated', 'deactivated'] as const;

function PasswordForm({ userId }: { userId: number }) {
  const { LL } = useI18nContext();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const validate = (vals: typeof values) => {
    const result = formErrors(LL, ChangePasswordForm, vals);
    const errors: Record<string, string> = result.ok ? {} : { ...result.errors };
    const c = confirmIssue(vals);
    if (c && !errors.confirm) errors.confirm = LL.validation[c]();
    return errors;
  };
  const errors = submitted ? validate(values) : {};

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setServerError(null);
    if (Object.keys(validate(values)).length > 0) return;
    setSaving(true);
    try {
      await api.put('/user/password-reset', { userId, password: values.password });
      notify.success(LL.shell.profile.changed());
      setValues({ password: '', confirm: '' });
      setSubmitted(false);
    } catch (err) {
      setServerError(err instanceof ApiError || err instanceof Error ? err.message : LL.errors.generic());
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex max-w-md flex-col gap-4"
      aria-labelledby="password-title"
    >
      <h2 id="password-title" className="text-lg font-semibold text-slate-800">
        {LL.shell.profile.passwordTitle()}
      </h2>
      <p className="text-sm text-slate-600">{LL.shell.profile.passwordHint()}</p>
      <Field
        label={LL.shell.profile.newPassword()}
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
      />
      <Field
        label={LL.shell.profile.confirmPassword()}
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        error={errors.confirm}
        onChange={(e) => setValues((v) => ({ ...v, confirm: e.target.value }))}
      />
      {serverError && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {serverError}
        </p>
      )}
      <div>
        <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
          {saving ? LL.shell.profile.saving() : LL.shell.profile.submit()}
        </Button>
      </div>
    </form>
  );
}

export default function ProfilePage() {
  const { LL, locale } = useI18nContext();
  const user = useCurrentUser();
  const actor = useAuthActor();
  const [, navigate] = useLocation();
  // The category's name in the reader's language: the signed-in user keeps the one of sign-in time.
  const categories = useCategories();
  if (!user) return null;
  const none = LL.shell.profile.none();
  const statusIndex = USER_STATUSES.findIndex((s) => s.id === user.statusId);
  const rows: [string, string][] = [
    [LL.shell.profile.email(), user.email],
    [LL.shell.profile.fullname(), user.fullname],
    [LL.shell.profile.role(), roleLabel(LL, user.role)],
    [LL.shell.profile.status(), statusIndex >= 0 ? LL.shell.status[STATUS_KEYS[statusIndex]]() : none],
    [LL.shell.profile.organization(), user.organization?.name ?? none],
    [
      LL.shell.profile.category(),
      user.category ? (categories.find((c) => c.id === user.category!.id)?.name ?? user.category.name) : none,
    ],
    [
      LL.shell.profile.registered(),
      user.createdAt
        ? new Date(user.createdAt).toLocaleDateString(locale, {
            year: 'numeric',
            month: 'long',
            day: 'numeric',
          })
        : none,
    ],
  ];

  return (
    <section className="p-6 lg:p-8">
      <PageHeader
        title={LL.shell.profile.title()}
        actions={
          <Button
            variant="secondary"
            onClick={() => {
              signOutEverywhereInTab(actor);
              navigate('/login');
            }}
          >
            {LL.common.logout()}
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <h2 className="mb-4 text-lg font-semibold text-slate-800">{LL.shell.profile.data()}</h2>
          {/* A phone stacks each label over its value: side by side, the values wrapped letter by letter. */}
          <dl className="grid grid-cols-1 gap-x-6 sm:grid-cols-[max-content_1fr] sm:gap-y-2 text-sm">
            {rows.map(([k, val]) => (
              <div key={k} className="contents">
                <dt className="text-slate-600">{k}</dt>
                <dd className="mb-2 text-slate-800 wrap-anywhere sm:mb-0">{val}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <PasswordForm userId={user.id} />
        </div>
      </div>
    </section>
  );
}
