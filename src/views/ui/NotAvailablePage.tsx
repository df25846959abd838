import { useI18nContext } from '../../i18n/i18n-react';

/** A page whose feature is not built yet: says so plainly, never shows invented data. */
export default function NotAvailablePage() {
  const { LL } = useI18nContext();
  return (
    <section className="p-8">
      <p role="status" className="text-slate-600">
        {LL.common.notAvailableYet()}
      </p>
    </section>
  );
}
