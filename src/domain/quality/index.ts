import { QUALITY_FLAGS, type QualityFlagName, type QualityFlagParams } from '../responses';
import { gibberishRule } from './gibberish';
import { straightLine, type AnsweredPage } from './straightline';

// The quality flags a respondent's own answers decide (gibberish, straight-liner), and the bits the
// server stores them as. The speeder and duplicate flags need the other respondents (the median,
// earlier completions): the server decides those (server/responses/flags.ts) with speeder.ts.

export { gibberishRule } from './gibberish';
export { straightLine, scalePosition, type AnsweredPage } from './straightline';
export { medianSeconds, speederRule, isSpeeder, type SpeederRule } from './speeder';

/** The bit of each flag in respondents.flags. */
export const FLAG_BITS: Record<QualityFlagName, number> = {
  speeder: 1,
  'straight-liner': 2,
  gibberish: 4,
  duplicate: 8,
};

export function flagBits(flags: readonly { name: QualityFlagName }[]): number {
  return flags.reduce((bits, f) => bits | FLAG_BITS[f.name], 0);
}

export function flagNames(bits: number): QualityFlagName[] {
  return QUALITY_FLAGS.filter((name) => (bits & FLAG_BITS[name]) !== 0);
}

/** The first written answer (open text or "Other") that is gibberish, as a flag. */
export function gibberishFlag(pages: readonly AnsweredPage[]): QualityFlagParams | null {
  for (const p of pages) {
    const texts = [p.question.category === 'open' ? p.reply.text : null, p.reply.other];
    for (const text of texts) {
      if (typeof text !== 'string') continue;
      const rule = gibberishRule(text);
      if (rule)
        return {
          name: 'gibberish',
          questionId: p.question.id,
          questionNumber: p.number,
          // Enough to recognize it in the reason; the whole text is on the respondent's page.
          text: text.trim().slice(0, 60),
          rule,
        };
    }
  }
  return null;
}

/** The flags a respondent's answers trip by themselves, in the order of QUALITY_FLAGS. */
export function answerFlags(pages: readonly AnsweredPage[]): QualityFlagParams[] {
  return [straightLine(pages), gibberishFlag(pages)].filter((f): f is QualityFlagParams => f !== null);
}
