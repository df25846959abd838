import type { ReactNode } from 'react';
import { Svg } from '../../ui/icons';

// The editor's toolbar icons (24×24 strokes, decorative: the button names the tool).
const paths: Record<string, ReactNode> = {
  undo: <path d="M9 14L4 9l5-5M4 9h10a6 6 0 010 12h-3" />,
  redo: <path d="M15 14l5-5-5-5M20 9H10a6 6 0 000 12h3" />,
  openReport: <path d="M4 20V10M10 20V4M16 20v-7M21 20H3" />,
  refresh: <path d="M20 11a8 8 0 10-2.3 5.7M20 4v7h-7" />,
  connections: (
    <>
      <circle cx="6" cy="6" r="2.5" />
      <circle cx="18" cy="18" r="2.5" />
      <path d="M8 8l8 8" />
    </>
  ),
  preview: (
    <>
      <path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  import: <path d="M12 3v12M7 10l5 5 5-5M4 21h16" />,
  save: <path d="M5 3h11l4 4v14H4V3zM8 3v5h8M8 21v-7h8v7" />,
  portraits: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2 21c0-4 3-6 7-6s7 2 7 6M16 4a3.5 3.5 0 010 7M22 21c0-3-1.5-5-4-5.7" />
    </>
  ),
  projectSettings: <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M16 4v4M10 10v4M18 16v4" />,
  sendModeration: <path d="M22 2L11 13M22 2l-7 20-4-9-9-4 20-7z" />,
  surveyLink: (
    <path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" />
  ),
  backToProjects: <path d="M10 6l-6 6 6 6M4 12h16" />,
  help: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9a2.5 2.5 0 114 2c-1 .7-1.5 1.2-1.5 2.5M12 17h0" />
    </>
  ),
  add: <path d="M12 5v14M5 12h14" />,
  rename: <path d="M4 20h4L19 9l-4-4L4 16v4zM13 7l4 4" />,
  duplicate: (
    <>
      <rect x="8" y="8" width="12" height="12" rx="2" />
      <path d="M16 8V5a1 1 0 00-1-1H5a1 1 0 00-1 1v10a1 1 0 001 1h3" />
    </>
  ),
  delete: <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />,
  moveUp: <path d="M12 19V5M6 11l6-6 6 6" />,
  moveDown: <path d="M12 5v14M6 13l6 6 6-6" />,
  commandMenu: <path d="M4 6h16M4 12h16M4 18h10" />,
};

export function ToolIcon({ name }: { name: string }) {
  return <Svg className="h-5 w-5">{paths[name] ?? paths.add}</Svg>;
}
