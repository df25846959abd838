import { lazy, useMemo } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { User } from '../../domain/user';
import type { RoleId } from '../../domain/roles';
import { CAN_INVITE } from '../../domain/userStatus';
import { deleteUser, resendInvitation, USERS_PATH } from '../../api/users';
import { useList, tableProps } from '../ui/useList';
import { DataTable, type Column } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button, IconButton } from '../ui/Button';
import { openModal } from '../ui/modal';
import { confirm } from '../ui/confirm';
import { notify } from '../ui/toast';
import { useCurrentUser } from '../auth/AuthProvider';
import { StatusSelect } from './StatusSelect';
import { EditIcon, KeyIcon, MailIcon, PlusIcon, TrashIcon } from '../ui/icons';
import { formatDateTime, roleName } from './labels';
import { useCategories } from './useCategories';

// The forms (organization picker, validation) load when one opens, not with the list (issue 25).
const UserForm = lazy(() => import('./UserForm').then((m) => ({ default: m.UserForm })));
const PasswordForm = lazy(() => import('./PasswordForm').then((m) => ({ default: m.PasswordForm })));

// One administration page per kind of user (spec section 2): the table is paged, sorted and
// searched on the server; invite, edit, resend, status, password and delete act on one row and
// reload the page of rows afterwards.

export interface UsersPageProps {
  title: (LL: TranslationFunctions) => string;
  /** The roles this page lists (Moderators lists Moderator and Moderator VK). */
  roles: readonly RoleId[];
  /** Roles the forms offer; the listed ones unless a page lets users move on (demo → researcher). */
  roleChoices?: readonly RoleId[];
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function UsersPage({ title, roles, roleChoices = roles }: UsersPageProps) {
  const { LL, locale } = useI18nContext();
  const me = useCurrentUser();
  const categories = useCategories();
  const list = useList<User>(USERS_PATH, {
    query: { roles: [...roles] },
    initialSort: { key: 'createdAt', order: 'desc' },
  });
  const pageTitle = title(LL);

  const invite = async () => {
    await openModal({
      title: LL.people.form.inviteTitle(),
      render: (close) => <UserForm roleChoices={roleChoices} onDone={close} />,
    });
    list.reload();
  };
  const edit = async (user: User) => {
    await openModal({
      title: LL.people.form.editTitle(),
      render: (close) => <UserForm user={user} roleChoices={roleChoices} onDone={close} />,
    });
    list.reload();
  };
  const setPassword = (user: User) =>
    openModal({
      title: LL.people.form.passwordTitle({ email: user.email }),
      render: (close) => <PasswordForm user={user} onDone={close} />,
    });
  const resend = async (user: User) => {
    try {
      await resendInvitation(user.id);
      notify.success(LL.people.notify.resent({ email: user.email }));
    } catch (err) {
      notify.error(message(err));
    }
    list.reload();
  };
  const remove = async (user: User) => {
    const ok = await confirm({
      title: LL.people.confirm.deleteTitle(),
      text: LL.people.confirm.deleteText({ email: user.email }),
      agreeLabel: LL.common.delete(),
      danger: true,
    });
    if (!ok) return;
    try {
      await deleteUser(user.id);
      notify.success(LL.people.notify.deleted({ email: user.email }));
    } catch (err) {
      notify.error(message(err));
    }
    list.reload();
  };

  const categoryNames = useMemo(() => new Map(categories.map((c) => [c.id, c.name])), [categories]);
  const columns: Column<User>[] = [
    {
      key: 'email',
      header: LL.people.table.email(),
      sortable: true,
      // An address breaks anywhere rather than widening the table past the screen.
      className: 'min-w-44 max-w-72 [overflow-wrap:anywhere]',
      render: (u) => <span className="font-medium text-slate-800">{u.email}</span>,
    },
    { key: 'fullname', header: LL.people.table.fullname(), sortable: true, render: (u) => u.fullname },
    ...(roles.length > 1
      ? [{ key: 'role', header: LL.people.table.role(), render: (u: User) => roleName(LL, u.role.id) }]
      : []),
    {
      key: 'organization',
      header: LL.people.table.organization(),
      sortable: true,
      render: (u) => u.organization?.name ?? '—',
    },
    {
      key: 'category',
      header: LL.people.table.category(),
      sortable: true,
      render: (u) => (u.category ? (categoryNames.get(u.category.id) ?? u.category.name) : '—'),
    },
    {
      key: 'status',
      header: LL.people.table.status(),
      sortable: true,
      render: (u) => (u.id === me?.id ? null : <StatusSelect user={u} onChanged={list.reload} />),
    },
    {
      key: 'createdAt',
      header: LL.people.table.registered(),
      sortable: true,
      className: 'min-w-28',
      render: (u) => formatDateTime(locale, u.createdAt),
    },
  ];

  return (
    <section className="p-6">
      <PageHeader
        title={pageTitle}
        actions={
          <Button onClick={() => void invite()}>
            <PlusIcon />
            {LL.people.actions.invite()}
          </Button>
        }
      />
      <div className="mb-3">
        <SearchBox label={LL.people.table.search()} value={list.search} onChange={list.setSearch} />
      </div>
      <DataTable<User>
        caption={pageTitle}
        columns={columns}
        {...tableProps(list)}
        rowKey={(u) => u.id}
        emptyText={
          list.search ? LL.people.table.emptySearch({ search: list.search }) : LL.people.table.empty()
        }
        actions={(u) => (
          <div
            className="inline-flex items-center gap-1"
            role="group"
            aria-label={LL.people.table.actionsFor({ email: u.email })}
          >
            <IconButton label={LL.people.actions.editFor({ email: u.email })} onClick={() => void edit(u)}>
              <EditIcon />
            </IconButton>
            {CAN_INVITE.includes(u.statusId) ? (
              <IconButton
                label={LL.people.actions.resendFor({ email: u.email })}
                onClick={() => void resend(u)}
              >
                <MailIcon />
              </IconButton>
            ) : (
              // Keeps the other icons in the same place on every row.
              <span className="inline-block h-9 w-9" aria-hidden="true" />
            )}
            <IconButton
              label={LL.people.actions.setPasswordFor({ email: u.email })}
              onClick={() => void setPassword(u)}
            >
              <KeyIcon />
            </IconButton>
            {u.id !== me?.id && (
              <IconButton
                label={LL.people.actions.deleteFor({ email: u.email })}
                onClick={() => void remove(u)}
                className="hover:text-red-800"
              >
                <TrashIcon />
              </IconButton>
            )}
          </div>
        )}
      />
    </section>
  );
}
