import type { ReactNode } from 'react';

/** The project editor fills the whole window; its toolbar lives in the editor itself. */
export default function EditorLayout({ children }: { children: ReactNode }) {
  return <div className="flex h-screen flex-col bg-white">{children}</div>;
}
