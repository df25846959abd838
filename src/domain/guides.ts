// The helper guides of spec section 2, as data: each is a sequence of image slides under
// public/guides/<id>/<n>.svg. The pictures are placeholders ("slide N of M") until the guides are
// illustrated; replacing a file keeps its name, so nothing here changes then.

export const GUIDES = {
  'project-editor/direct-link': { slides: 8, title: 'projectEditorDirectLink' },
  'project-editor/default': { slides: 10, title: 'projectEditorDefault' },
  'lk/demo-researcher': { slides: 6, title: 'lkDemoResearcher' },
} as const;

export type GuideId = keyof typeof GUIDES;
export type GuideTitleKey = (typeof GUIDES)[GuideId]['title'];

export const GUIDE_IDS = Object.keys(GUIDES) as GuideId[];

/** The guide that opens by itself on a demo researcher's first sign-in. */
export const FIRST_LOGIN_GUIDE: GuideId = 'lk/demo-researcher';

/** How long the slides stay after the dialog closes (its fade-out), then they are cleared. */
export const GUIDE_CLEAR_DELAY_MS = 500;

export function isGuideId(id: unknown): id is GuideId {
  return typeof id === 'string' && id in GUIDES;
}

/** Picture URLs of a guide's slides, in order. */
export function guideSlides(id: GuideId): string[] {
  return Array.from({ length: GUIDES[id].slides }, (_, i) => `/guides/${id}/${i + 1}.svg`);
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
