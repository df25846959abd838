import { useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { User } from '../../domain/user';
import { UserStatus, type UserStatusId } from '../../domain/roles';
import { statusOptions } from '../../domain/userStatus';
import { updateUser } from '../../api/users';
import { confirm } from '../ui/confirm';
import { notify } from '../ui/toast';
import { statusName } from './labels';

/**
 * The status selector of spec section 4: Invitation sent, Activated, Deactivated and the current
 * status; choices the current status cannot move to are shown disabled. Deactivating asks first,
 * because it ends the user's sessions at once.
 */
export function StatusSelect({ user, onChanged }: { user: User; onChanged: () => void }) {
  const { LL } = useI18nContext();
  const [busy, setBusy] = useState(false);

  const change = async (to: UserStatusId) => {
    if (to === user.statusId) return;
    if (
      to === UserStatus.Deactivated &&
      !(await confirm({
        title: LL.people.confirm.deactivateTitle(),
        text: LL.people.confirm.deactivateText({ email: user.email }),
        danger: true,
      }))
    ) {
      return;
    }
    setBusy(true);
    try {
      await updateUser(user.id, { statusId: to });
      notify.success(LL.people.notify.statusChanged({ email: user.email, status: statusName(LL, to) }));
    } catch (err) {
      notify.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
      onChanged();
    }
  };

  return (
    <select
      aria-label={LL.people.actions.changeStatus({ email: user.email })}
      value={user.statusId}
      disabled={busy}
      onChange={(e) => void change(Number(e.target.value) as UserStatusId)}
      className="rounded border border-slate-300 bg-white px-2 py-1 text-sm disabled:opacity-60"
    >
      {statusOptions(user.statusId).map((o) => (
        <option key={o.id} value={o.id} disabled={!o.allowed}>
          {statusName(LL, o.id)}
        </option>
      ))}
    </select>
  );
}
