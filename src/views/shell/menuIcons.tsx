import type { SVGProps } from 'react';
import type { MenuIcon } from '../../domain/menu';
import { Svg } from '../ui/icons';

// The sidebar's icons, kept apart from the shared ones so that they load with the main layout,
// not with /login.

const MENU_PATHS: Record<MenuIcon, string> = {
  users:
    'M16 21v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1M9 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 21v-1a4 4 0 0 0-3-3.9M16 4.1a4 4 0 0 1 0 7.8',
  researchers: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zM21 21l-5.3-5.3M7 10h6M10 7v6',
  issuers: 'M3 21h18M5 21V7l7-4 7 4v14M9 21v-6h6v6M9 10h.01M15 10h.01',
  moderators: 'M12 3l8 3v6c0 5-3.4 8.2-8 9-4.6-.8-8-4-8-9V6l8-3zM9 12l2 2 4-4',
  games:
    'M6 11h4M8 9v4M15 12h.01M18 10h.01M17.3 5H6.7a4 4 0 0 0-4 3.6L2 15a3 3 0 0 0 5.4 1.8L9 15h6l1.6 1.8A3 3 0 0 0 22 15l-.7-6.4A4 4 0 0 0 17.3 5z',
  calculator:
    'M6 2h12a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zM8 6h8v4H8zM8 14h.01M12 14h.01M16 14h.01M8 18h.01M12 18h.01M16 18h.01',
  tariffs: 'M20.6 13.4l-7.2 7.2a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8zM7 7h.01',
  analytics: 'M3 3v18h18M7 15l4-4 3 3 6-6',
  projects:
    'M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2 2 2 0 0 0-2-2h-2a2 2 0 0 0-2 2zM9 12h6M9 16h4',
  reports:
    'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6zM14 2v6h6M8 18v-3M12 18v-6M16 18v-4',
  history: 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l4 2',
  statistics: 'M18 20V10M12 20V4M6 20v-6',
};

export function MenuItemIcon({ name, ...p }: SVGProps<SVGSVGElement> & { name: MenuIcon }) {
  return (
    <Svg {...p}>
      <path d={MENU_PATHS[name]} />
    </Svg>
  );
}
