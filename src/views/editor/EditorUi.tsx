import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { EditorSelection } from './selection';

// The editor page's own view state, beside the machine's content: the one selection that the canvas,
// the outline, the side panel and the problem list share, and the page's toggles. Kept out of the
// editor machine because none of it is saved or undone.
//
// Two contexts: the selection changes on every click, the toggles seldom. The frame and the parts
// that only read toggles (useEditorView) do not render again when the selection moves; those that
// show the selection read it (useSelection, or useEditorUi for both).

export type SideTab = 'item' | 'problems' | 'history' | 'changes';

export interface EditorView {
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
  /**
   * The language whose texts the panels and the outline edit (the toolbar's language switch); null
   * or a language the questionnaire no longer has means the source (languages/useTextLanguage.ts).
   */
  language: string | null;
  setLanguage: (code: string | null) => void;
  /** The translation view is open (source and translation side by side). */
  translating: boolean;
  setTranslating: (on: boolean) => void;
}

export interface EditorUiState extends EditorView {
  selection: EditorSelection;
}

const ViewCtx = createContext<EditorView | null>(null);
const SelectionCtx = createContext<EditorSelection>(null);

export function EditorUiProvider({ reload, children }: { reload: () => void; children: ReactNode }) {
  const [selection, select] = useState<EditorSelection>(null);
  const [connections, setConnections] = useState(true);
  const [preview, setPreview] = useState(false);
  const [importing, setImporting] = useState(false);
  const [tab, setTab] = useState<SideTab>('item');
  const [commandMenu, setCommandMenu] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [language, setLanguage] = useState<string | null>(null);
  const [translating, setTranslating] = useState(false);
  const view = useMemo(
    () => ({
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
      language,
      setLanguage,
      translating,
      setTranslating,
    }),
    [connections, preview, importing, tab, commandMenu, renaming, reload, language, translating],
  );
  return (
    <ViewCtx.Provider value={view}>
      <SelectionCtx.Provider value={selection}>{children}</SelectionCtx.Provider>
    </ViewCtx.Provider>
  );
}

/** The page's toggles and setters, without the selection (does not render again on a click). */
export function useEditorView(): EditorView {
  const v = useContext(ViewCtx);
  if (!v) throw new Error('useEditorView outside EditorUiProvider');
  return v;
}

export function useSelection(): EditorSelection {
  return useContext(SelectionCtx);
}

export function useEditorUi(): EditorUiState {
  const view = useEditorView();
  const selection = useSelection();
  return useMemo(() => ({ ...view, selection }), [view, selection]);
}
