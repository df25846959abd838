import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';

/**
 * A page of the menu that the user's role does not see (typed by hand or from an old link): says so
 * and offers the profile, instead of letting the page's calls answer 403 (which signs the user out,
 * spec section 8).
 */
export default function NotAvailablePage() {
  const { LL } = useI18nContext();
  return (
    <section className="p-8">
      {/* The message is the page's one heading, so a screen reader's heading list lands on it. */}
      <div role="status">
        <h1 className="text-lg font-semibold text-slate-800">{LL.common.notForRole()}</h1>
      </div>
      <Link href="/profile" className="mt-3 inline-block text-indigo-700 underline">
        {LL.common.toProfile()}
      </Link>
    </section>
  );
}
