import { captionKey, GUIDES, slideNumber, type GuideId } from '../../domain/guides';
import type { TranslationFunctions } from '../../i18n/i18n-types';

// Apart from guide.tsx, which every signed-in page loads: the captions are in the `guides` group,
// which only the open guide dialog loads.

/** A slide's caption, which is also its alt text: `guides` is not a boot group, see GuideDialog. */
export function slideCaption(LL: TranslationFunctions, guide: GuideId, src: string): string {
  const captions = LL.guides.captions[GUIDES[guide].title] as Record<string, () => string>;
  return captions[captionKey(slideNumber(src))]?.() ?? '';
}
