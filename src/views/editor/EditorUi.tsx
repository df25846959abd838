import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { EditorSelection } from './selection';

// The editor page's own view state, beside the machine's content: the one selection that the canvas,
// the outline, the side panel and the problem list share, and the page's toggles. Kept out of the
// editor machine because none of it is saved or undone.

export type SideTab = 'item' | 'problems' | 'history' | 'changes';

export interface EditorUiState {
  selection: EditorSelection;
  select: (s: EditorSelection) => void;
  connections: boolean;
  setConnections: (on: boolean) => void;
  preview: boolean;
  setPreview: (on: boolean) => void;
  importing: boolean;
  setImporting: (on: boolean) => void;
  tab: SideTab;
  setTab: (t: SideTab) => void;
  commandMenu: boolean;
  setCommandMenu: (on: boolean) => void;
  /** The item whose name the outline is editing now. */
  renaming: string | null;
  setRenaming: (id: string | null) => void;
  /** Reopens the project from scratch (after a refresh or a status change). */
  reload: () => void;
}

const Ctx = createContext<EditorUiState | null>(null);

export function EditorUiProvider({ reload, children }: { reload: () => void; children: ReactNode }) {
  const [selection, select] = useState<EditorSelection>(null);
  const [connections, setConnections] = useState(true);
  const [preview, setPreview] = useState(false);
  const [importing, setImporting] = useState(false);
  const [tab, setTab] = useState<SideTab>('item');
  const [commandMenu, setCommandMenu] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const value = useMemo(
    () => ({
      selection,
      select,
      connections,
      setConnections,
      preview,
      setPreview,
      importing,
      setImporting,
      tab,
      setTab,
      commandMenu,
      setCommandMenu,
      renaming,
      setRenaming,
      reload,
    }),
    [selection, connections, preview, importing, tab, commandMenu, renaming, reload],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useEditorUi(): EditorUiState {
  const v = useContext(Ctx);
  if (!v) throw new Error('useEditorUi outside EditorUiProvider');
  return v;
}
