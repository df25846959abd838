import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllLocales } from '../../src/i18n/i18n-util.sync';
import { i18nObject } from '../../src/i18n/i18n-util';
import {
  GUIDE_IDS,
  GUIDE_LOCALES,
  GUIDE_SLIDE_HEIGHT,
  GUIDE_SLIDE_MAX_BYTES,
  GUIDE_SLIDE_WIDTH,
  GUIDES,
  guideSlides,
} from '../../src/domain/guides';
import { demoRefuses, exampleContent } from '../../src/domain/demo';
import { checkContent } from '../../src/domain/content/rules';
import { ProjectType } from '../../src/domain/projects';
import { Role } from '../../src/domain/roles';
import { slideCaption } from '../../src/views/shell/slideCaption';

// The committed guides (made by `npm run guides`): every guide in every language has all its slides
// as real WebP pictures of the slide size within the budget, nothing stale beside them, and every
// slide has a caption, which the dialog gives as its alt text.

loadAllLocales();

/** Width and height of a WebP file from its VP8, VP8L or VP8X header. */
function webpSize(b: Buffer): { width: number; height: number } | null {
  if (b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WEBP') return null;
  const chunk = b.toString('ascii', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

describe('guide slides', () => {
  for (const id of GUIDE_IDS) {
    for (const locale of GUIDE_LOCALES) {
      it(`${id} (${locale}): ${GUIDES[id].slides} WebP slides of ${GUIDE_SLIDE_WIDTH}×${GUIDE_SLIDE_HEIGHT}, each ≤ 80 KB`, () => {
        const slides = guideSlides(id, locale);
        expect(slides).toHaveLength(GUIDES[id].slides);
        for (const src of slides) {
          const file = path.join('public', src);
          expect(fs.existsSync(file), src).toBe(true);
          const bytes = fs.readFileSync(file);
          expect(bytes.length, src).toBeLessThanOrEqual(GUIDE_SLIDE_MAX_BYTES);
          expect(webpSize(bytes), src).toEqual({ width: GUIDE_SLIDE_WIDTH, height: GUIDE_SLIDE_HEIGHT });
        }
        // Nothing else in the folder: a guide that lost slides must not keep serving old ones.
        const dir = path.join('public/guides', id, locale);
        expect(fs.readdirSync(dir).sort()).toEqual(slides.map((s) => path.basename(s)).sort());
      });

      it(`${id} (${locale}): every slide has its own caption as alt text`, () => {
        const LL = i18nObject(locale);
        const alts = guideSlides(id, locale).map((src) => slideCaption(LL, id, src));
        for (const alt of alts) expect(alt.trim().length).toBeGreaterThan(10);
        expect(new Set(alts).size).toBe(alts.length);
      });
    }
  }

  it('every slide shows the caption of today: the captions drawn match the i18n captions', () => {
    // public/guides/captions.json is written by `npm run guides` with the pictures: a caption changed
    // in i18n without making its slides again (the editor guides' first slide still said "joined by
    // their order" after the canvas stopped drawing that, issue #26) fails here.
    const file = 'public/guides/captions.json';
    expect(fs.existsSync(file), `${file} (npm run guides writes it)`).toBe(true);
    const drawn = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>;
    for (const id of GUIDE_IDS)
      for (const locale of GUIDE_LOCALES) {
        const LL = i18nObject(locale);
        const now = guideSlides(id, locale).map((src) => slideCaption(LL, id, src));
        expect(drawn[`${id}/${locale}`], `${id} (${locale}): run npm run guides`).toEqual(now);
      }
    expect(JSON.stringify(drawn)).not.toContain('joined by their order');
  });

  it('keeps no placeholder pictures', () => {
    const all = fs.readdirSync('public/guides', { recursive: true }).map(String);
    expect(all.filter((f) => f.endsWith('.svg'))).toEqual([]);
  });
});

describe('demo account', () => {
  it('refuses a demo researcher only, and only moderation and the survey link', () => {
    expect(demoRefuses(Role.DemoResearcher, 'submit')).toBe(true);
    expect(demoRefuses(Role.DemoResearcher, 'link')).toBe(true);
    for (const role of [Role.Researcher, Role.Administrator, Role.Moderator])
      expect(demoRefuses(role, 'submit') || demoRefuses(role, 'link')).toBe(false);
  });

  for (const locale of GUIDE_LOCALES) {
    it(`makes an example questionnaire in ${locale} that the editor's rules accept`, () => {
      const content = exampleContent(i18nObject(locale));
      const [qn] = content.questionnaires;
      expect(qn.blocks.map((b) => b.questions.length)).toEqual([2, 3]);
      expect(checkContent(content, { projectType: ProjectType.Default })).toEqual([]);
    });
  }
});
