import { createContext, useContext } from 'react';
import type { EditorSelection } from '../selection';

/** What the panel's parts share without threading props: how to move the selection. */
export const PanelContext = createContext<{ onSelect: (s: EditorSelection) => void }>({
  onSelect: () => {},
});

export const usePanelContext = () => useContext(PanelContext);
