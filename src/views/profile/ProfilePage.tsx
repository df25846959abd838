import { useI18nContext } from '../../i18n/i18n-react';
import { useCurrentUser } from '../auth/AuthProvider';

export default function ProfilePage() {
  const { LL } = useI18nContext();
  const user = useCurrentUser();
  return (
    <section className="p-8">
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{LL.common.profile()}</h1>
      <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Email</dt>
        <dd>{user?.email}</dd>
        <dt className="text-slate-500">{LL.common.profile()}</dt>
        <dd>{user?.fullname}</dd>
      </dl>
    </section>
  );
}
