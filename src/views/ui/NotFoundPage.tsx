import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';

export default function NotFoundPage() {
  const { LL } = useI18nContext();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-8 text-center">
      {/* One heading: a big number in a paragraph reads as a heading that is not one. */}
      <h1 className="flex flex-col items-center gap-4 text-2xl font-semibold text-slate-800">
        <span className="text-6xl font-bold text-indigo-700">404</span>
        {LL.common.notFoundTitle()}
      </h1>
      <p className="text-slate-600">{LL.common.notFoundText()}</p>
      <Link href="/" className="rounded bg-indigo-700 px-4 py-2 text-white hover:bg-indigo-800">
        {LL.common.toHome()}
      </Link>
    </main>
  );
}
