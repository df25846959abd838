import type { ReactNode } from 'react';

/** Hosts only the routed view. */
export default function EmptyLayout({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
