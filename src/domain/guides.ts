import type { Locales } from '../i18n/i18n-types';

// The helper guides of spec section 2, as data: each is a sequence of image slides made from the
// running app by `npm run guides` (scripts/guides.ts), one set per locale under
// public/guides/<id>/<locale>/<n>.webp. Slide n's caption is `guides.captions.<title>.s<n>`: the
// script draws it into the picture and the dialog gives it as the picture's alt text.

export const GUIDES = {
  'project-editor/direct-link': { slides: 8, title: 'projectEditorDirectLink' },
  'project-editor/default': { slides: 10, title: 'projectEditorDefault' },
  'lk/demo-researcher': { slides: 6, title: 'lkDemoResearcher' },
} as const;

export type GuideId = keyof typeof GUIDES;
export type GuideTitleKey = (typeof GUIDES)[GuideId]['title'];

export const GUIDE_IDS = Object.keys(GUIDES) as GuideId[];
export const GUIDE_LOCALES: readonly Locales[] = ['ru', 'en'];

/** Every slide at most this many bytes (the guides come with the app and work offline). */
export const GUIDE_SLIDE_MAX_BYTES = 80 * 1024;
/** The pictures' size: the dialog shows them at 16:9. */
export const GUIDE_SLIDE_WIDTH = 1280;
export const GUIDE_SLIDE_HEIGHT = 720;

/** The guide that opens by itself on a demo researcher's first sign-in. */
export const FIRST_LOGIN_GUIDE: GuideId = 'lk/demo-researcher';

/** How long the slides stay after the dialog closes (its fade-out), then they are cleared. */
export const GUIDE_CLEAR_DELAY_MS = 500;

export function isGuideId(id: unknown): id is GuideId {
  return typeof id === 'string' && id in GUIDES;
}

/** The picture of slide n (1-based) in a locale. */
export function guideSlide(id: GuideId, locale: Locales, n: number): string {
  return `/guides/${id}/${locale}/${n}.webp`;
}

/** Picture URLs of a guide's slides in a locale, in order. */
export function guideSlides(id: GuideId, locale: Locales): string[] {
  return Array.from({ length: GUIDES[id].slides }, (_, i) => guideSlide(id, locale, i + 1));
}

/** The caption key of slide n (1-based): `guides.captions[title][key]`. */
export function captionKey(n: number): `s${number}` {
  return `s${n}`;
}

/** Slide number (1-based) of a slide URL made by guideSlide, or 0. */
export function slideNumber(url: string): number {
  const m = /\/(\d+)\.webp$/.exec(url);
  return m ? Number(m[1]) : 0;
}

/**
 * The guide of a page: the editor's guides on /project (the direct-link one for projects made
 * from the directLink templates), the account guide everywhere else.
 */
export function guideForPage(path: string, template?: string | null): GuideId {
  if (path === '/project') {
    return template === 'directLink' || template === 'directLinkAdmin'
      ? 'project-editor/direct-link'
      : 'project-editor/default';
  }
  return 'lk/demo-researcher';
}
