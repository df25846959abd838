import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { newQuestion } from '../../src/domain/content/factory';
import { OPEN_ANSWER_MAX } from '../../src/domain/content/categories';
import type { Question } from '../../src/domain/content/model';
import {
  REPLY_TEXT_MAX,
  ReplySchema,
  checkReply,
  normalizeReply,
  placeInRegion,
  textLimits,
} from '../../src/domain/flow';

// The fields the editor's panels set and the respondent's answer must obey (one rule for the runner,
// the preview and the server): an open answer's length and a city question's region.

const page = (question: Question) => ({ question, answers: [], statements: [] });

describe("an open answer's length (textLength)", () => {
  const open = (textLength: Question['textLength']) => newQuestion({ id: 'o', category: 'open', textLength });

  it('takes min and max from the question; without it, up to the default and no minimum', () => {
    expect(textLimits(open({ min: 10, max: 200 }))).toEqual({ min: 10, max: 200 });
    expect(textLimits(open(null))).toEqual({ min: 0, max: REPLY_TEXT_MAX });
    // A length the rules would refuse (saved before them) still gives a usable box, never max < min.
    expect(textLimits(open({ min: 50, max: 20 }))).toEqual({ min: 20, max: 20 });
    expect(textLimits(open({ min: 0, max: OPEN_ANSWER_MAX * 5 })).max).toBe(OPEN_ANSWER_MAX);
  });

  it('refuses a text longer than the maximum and shorter than the minimum, counting the trimmed text', () => {
    const q = open({ min: 3, max: 5 });
    expect(checkReply(page(q), { text: 'abcde' })).toBeNull();
    expect(checkReply(page(q), { text: '  abcde  ' })).toBeNull();
    expect(checkReply(page(q), { text: 'abcdef' })).toEqual({ code: 'tooLong', max: 5 });
    expect(checkReply(page(q), { text: 'ab' })).toEqual({ code: 'tooShort', min: 3 });
    expect(checkReply(page(q), { text: '   ' })).toEqual({ code: 'required' });
    expect(normalizeReply(q, { text: '  abc ' })).toEqual({ text: 'abc' });
  });

  it('without a length, the default maximum still holds; a question may allow more', () => {
    const long = 'x'.repeat(REPLY_TEXT_MAX + 1);
    expect(checkReply(page(open(null)), { text: long })).toEqual({ code: 'tooLong', max: REPLY_TEXT_MAX });
    expect(checkReply(page(open({ min: 0, max: 5000 })), { text: long })).toBeNull();
  });

  it('the payload schema lets through what a question may allow, and no more', () => {
    expect(v.safeParse(ReplySchema, { text: 'x'.repeat(OPEN_ANSWER_MAX) }).success).toBe(true);
    expect(v.safeParse(ReplySchema, { text: 'x'.repeat(OPEN_ANSWER_MAX + 1) }).success).toBe(false);
    // The "other" answer keeps the short bound.
    expect(v.safeParse(ReplySchema, { other: 'x'.repeat(REPLY_TEXT_MAX + 1) }).success).toBe(false);
  });
});

describe("a city question's region", () => {
  const city = (region: string | null) => newQuestion({ id: 'c', category: 'cityAuto', region });

  it('takes only the cities of its region; without one, any city', () => {
    expect(placeInRegion(city('MOS'), 'MOS:Podolsk')).toBe(true);
    expect(placeInRegion(city('MOS'), 'SPE:Kolpino')).toBe(false);
    // A region id that is a prefix of another does not let the other in.
    expect(placeInRegion(city('MO'), 'MOS:Podolsk')).toBe(false);
    expect(placeInRegion(city(null), 'SPE:Kolpino')).toBe(true);
    expect(checkReply(page(city('MOS')), { text: 'MOS:Podolsk' })).toBeNull();
    expect(checkReply(page(city('MOS')), { text: 'SPE:Kolpino' })).toEqual({ code: 'outsideRegion' });
    expect(checkReply(page(city(null)), { text: 'SPE:Kolpino' })).toBeNull();
  });

  it('takes the ids of cities whose names have apostrophes and diacritics', () => {
    for (const id of ['SAM:Tol’yatti', 'ORL:Orël', 'RYA:Ryazan’'])
      expect(checkReply(page(city(null)), { text: id }), id).toBeNull();
    expect(checkReply(page(city(null)), { text: 'MOS:<script>' })).toEqual({ code: 'invalid' });
  });

  it('a region question is not narrowed by a region', () => {
    const region = newQuestion({ id: 'r', category: 'regionAuto', region: 'MOS' });
    expect(checkReply(page(region), { text: 'SPE' })).toBeNull();
  });
});
