import type { ReactNode } from 'react';

/** Pages reachable without signing in: a centred card. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 p-4">
      <div className="w-full max-w-sm rounded-lg bg-white p-8 shadow">{children}</div>
    </main>
  );
}
