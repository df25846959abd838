import { useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { User } from '../../domain/user';
import type { RoleId } from '../../domain/roles';
import { UserCreateBody, UserUpdateBody } from '../../domain/users';
import { OrganizationType, type OrganizationTypeId } from '../../domain/organizations';
import { Role } from '../../domain/roles';
import { createUser, updateUser } from '../../api/users';
import { ApiError } from '../../api/client';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { notify } from '../ui/toast';
import { OrganizationPicker, type PickedOrganization } from './OrganizationPicker';
import { roleName } from './labels';
import { useCategories } from './useCategories';
import { FormError } from '../ui/FormError';

// Invite (create) or edit a user. The same valibot schema as the server checks the form first; the
// server's answer (a taken email, a missing organization) lands under the field it names.

type Locale = 'ru' | 'en' | null;

/** The organization type a new organization most likely has for people of this role. */
function typeFor(role: RoleId): OrganizationTypeId {
  if (role === Role.Issuer) return OrganizationType.GamePublisher;
  if (role === Role.Moderator || role === Role.ModeratorVK) return OrganizationType.Platform;
  return OrganizationType.ResearchAgency;
}

export function UserForm({
  user,
  roleChoices,
  onDone,
}: {
  user?: User;
  roleChoices: readonly RoleId[];
  onDone: () => void;
}) {
  const { LL } = useI18nContext();
  const categories = useCategories();
  const [email, setEmail] = useState(user?.email ?? '');
  const [fullname, setFullname] = useState(user?.fullname ?? '');
  const [roleId, setRoleId] = useState<RoleId>(user?.role.id ?? roleChoices[0]);
  const [organization, setOrganization] = useState<PickedOrganization | null>(user?.organization ?? null);
  const [categoryId, setCategoryId] = useState<number | null>(user?.category?.id ?? null);
  const [locale, setLocale] = useState<Locale>(user?.locale ?? null);
  // The form's own checks run on every render once a submit has shown what is missing, so each
  // message goes as soon as its field is put right (as on the sign-in page), not at the next submit.
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { role: useId(), category: useId(), locale: useId() };

  const body = () => ({
    email,
    fullname,
    roles: [roleId],
    organizationId: organization?.id ?? null,
    categoryId,
    locale,
  });

  /** The form's own checks: the messages by field, none when it passes. */
  const clientErrors = (): Record<string, string> => {
    const checked = user
      ? formErrors(LL, UserUpdateBody, { id: user.id, ...body() })
      : formErrors(LL, UserCreateBody, body());
    if (checked.ok) return {};
    const { 'roles.0': role, ...rest } = checked.errors;
    return role ? { ...rest, roles: role } : rest;
  };
  const errors = tried ? { ...serverErrors, ...clientErrors() } : serverErrors;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setTried(true);
    setServerErrors({});
    if (Object.keys(clientErrors()).length > 0) return;
    setServerError(null);
    setBusy(true);
    try {
      const input = { email, fullname, roleId, organizationId: organization?.id ?? null, categoryId, locale };
      if (user) {
        await updateUser(user.id, input);
        notify.success(LL.people.notify.saved());
      } else {
        const created = await createUser(input);
        if (created.mailSent) notify.success(LL.people.notify.invited({ email: created.email }));
        // The user exists; the administrator resends the invitation once mail works again.
        else
          notify.warning(LL.people.notify.createdMailFailed({ email: created.email }), { duration: 15_000 });
      }
      onDone();
    } catch (err) {
      setBusy(false);
      const field = err instanceof ApiError ? (err.body as { field?: string } | null)?.field : undefined;
      const message = err instanceof Error ? err.message : String(err);
      if (field && ['email', 'fullname', 'organizationId', 'categoryId', 'roles'].includes(field))
        setServerErrors({ [field]: message });
      else setServerError(message);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field
        label={LL.people.form.email()}
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={errors.email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label={LL.people.form.fullname()}
        name="fullname"
        autoComplete="off"
        value={fullname}
        error={errors.fullname}
        onChange={(e) => setFullname(e.target.value)}
      />
      {roleChoices.length > 1 && (
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.role} className="text-sm font-medium text-slate-700">
            {LL.people.form.role()}
          </label>
          <select
            id={ids.role}
            value={roleId}
            onChange={(e) => setRoleId(Number(e.target.value) as RoleId)}
            className="rounded border border-slate-300 px-3 py-2"
          >
            {roleChoices.map((r) => (
              <option key={r} value={r}>
                {roleName(LL, r)}
              </option>
            ))}
          </select>
          {errors.roles && <p className="text-sm text-red-800">{errors.roles}</p>}
        </div>
      )}
      <OrganizationPicker
        value={organization}
        onChange={setOrganization}
        error={errors.organizationId}
        categories={categories}
        defaultType={typeFor(roleId)}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.category} className="text-sm font-medium text-slate-700">
          {LL.people.form.category()}
        </label>
        <select
          id={ids.category}
          value={categoryId ?? ''}
          onChange={(e) => setCategoryId(e.target.value ? Number(e.target.value) : null)}
          aria-invalid={errors.categoryId ? true : undefined}
          className="rounded border border-slate-300 px-3 py-2"
        >
          <option value="">{LL.people.form.categoryNone()}</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
          {/* A category chosen earlier that is not in the list (yet) stays visible. */}
          {user?.category && !categories.some((c) => c.id === user.category!.id) && (
            <option value={user.category.id}>{user.category.name}</option>
          )}
        </select>
        {errors.categoryId && <p className="text-sm text-red-800">{errors.categoryId}</p>}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.locale} className="text-sm font-medium text-slate-700">
          {LL.people.form.locale()}
        </label>
        <select
          id={ids.locale}
          value={locale ?? ''}
          onChange={(e) => setLocale((e.target.value || null) as Locale)}
          className="rounded border border-slate-300 px-3 py-2"
        >
          <option value="">{LL.people.form.localeUnknown()}</option>
          <option value="ru">{LL.people.form.localeRu()}</option>
          <option value="en">{LL.people.form.localeEn()}</option>
        </select>
      </div>
      <FormError message={serverError} />
      <div className="flex justify-end gap-2">
        <Button type="submit" disabled={busy}>
          {user ? LL.people.form.submitSave() : LL.people.form.submitInvite()}
        </Button>
      </div>
    </form>
  );
}
