import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';

export default function NotFoundPage() {
  const { LL } = useI18nContext();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-8 text-center">
      <p className="text-6xl font-bold text-indigo-600">404</p>
      <h1 className="text-2xl font-semibold text-slate-800">{LL.common.notFoundTitle()}</h1>
      <p className="text-slate-600">{LL.common.notFoundText()}</p>
      <Link href="/" className="rounded bg-indigo-600 px-4 py-2 text-white hover:bg-indigo-700">
        {LL.common.toHome()}
      </Link>
    </main>
  );
}
