import { useCallback, useState } from 'react';

// The spec's canvas hint ("wheel to zoom, drag to move") stays until the user has zoomed with the
// wheel and dragged the canvas once each, in this browser (localStorage `editor-canvas-hint`).

const KEY = 'editor-canvas-hint';
type Done = { zoom?: boolean; pan?: boolean };

function read(): Done {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export function useCanvasHint() {
  const [done, setDone] = useState<Done>(read);
  const mark = useCallback((what: 'zoom' | 'pan') => {
    setDone((d) => {
      if (d[what]) return d;
      const next = { ...d, [what]: true };
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        /* storage blocked: the hint shows again next time */
      }
      return next;
    });
  }, []);
  return { visible: !(done.zoom && done.pan), done: mark };
}
