import * as v from 'valibot';
import { computePrice, type PriceSettings } from './price';
import { COUNT_MAX } from './pricing';
import { queryId } from './validation';
import { LIMITS, HARD_CAP } from './content/limits';
import type { ProjectContent } from './content/model';
import { ProjectType } from './projects';

// The editor's live price of one project (GET /project/price, docs/decisions/panels.md). The
// calculator's settings are the Administrator's: the editor sends the counts of the content on
// screen and gets back the price of exactly those counts, never the settings. The formula is the
// calculator's (src/domain/price.ts), applied per portrait because each portrait has its own
// respondents and its own number of target filters.

/** What the editor counts in its content. */
export interface PriceCounts {
  questions: number;
  blocks: number;
  screening: number;
  /** One entry per portrait: its respondents and its target filters (conditions). */
  portraits: { respondents: number; filters: number }[];
}

export interface ProjectPrice {
  /** Respondents of all portraits (0 for a project without portraits). */
  respondents: number;
  /** The part that does not depend on respondents. Roubles, VK share included. */
  oneOff: number;
  /** What each completed respondent adds (averaged over the portraits). Roubles, VK share included. */
  perRespondent: number;
  /** The whole project for its respondents. Roubles. */
  total: number;
}

export function countsOf(content: ProjectContent, projectType: number): PriceCounts {
  let questions = 0;
  let blocks = 0;
  let screening = 0;
  for (const qn of content.questionnaires) {
    blocks += qn.blocks.length;
    for (const b of qn.blocks)
      for (const q of b.questions) {
        questions++;
        if (q.category === 'screening') screening++;
      }
  }
  const portraits =
    projectType === ProjectType.Target
      ? content.portraits.map((p) => ({ respondents: p.respondents, filters: p.params.length }))
      : [];
  return { questions, blocks, screening, portraits };
}

const count = v.pipe(
  v.string('type'),
  v.regex(/^\d{1,8}$/, 'integer'),
  v.transform(Number),
  v.maxValue(COUNT_MAX, 'invalid'),
);
const portrait = v.pipe(
  v.string('type'),
  v.regex(/^\d{1,8}:\d{1,4}$/, 'invalid'),
  v.transform((s) => {
    const [respondents, filters] = s.split(':').map(Number);
    return { respondents, filters };
  }),
  v.check((p) => p.respondents <= COUNT_MAX && p.filters <= COUNT_MAX, 'invalid'),
);

/** GET /project/price?pid=&questions=&blocks=&screening=&portraits=300:2&portraits=… */
export const ProjectPriceQuery = v.object({
  pid: queryId,
  questions: count,
  blocks: count,
  screening: count,
  portraits: v.optional(
    v.pipe(
      v.union(
        [
          v.pipe(
            v.string(),
            v.transform((s) => [s]),
          ),
          v.array(v.string()),
        ],
        'type',
      ),
      v.maxLength(LIMITS.portraits * HARD_CAP, 'tooLong'),
      v.array(portrait),
    ),
    [],
  ),
});

/** The query string of a price request. */
export function priceQuery(pid: number, c: PriceCounts): Record<string, string | string[]> {
  return {
    pid: String(pid),
    questions: String(c.questions),
    blocks: String(c.blocks),
    screening: String(c.screening),
    portraits: c.portraits.map((p) => `${Math.max(0, Math.floor(p.respondents))}:${p.filters}`),
  };
}

const kopecks = (roubles: number) => BigInt(Math.round(roubles * 100));
const roubles = (k: bigint) => Number(k) / 100;

export function projectPrice(settings: PriceSettings, c: PriceCounts): ProjectPrice {
  // VK's share goes on at the end, once, as in the calculator: price everything without it first.
  const bare = { ...settings, vkPercent: 0 };
  const base = { questions: c.questions, blocks: c.blocks, screening: c.screening };
  const one = computePrice(bare, { ...base, targetFilters: 0, completes: 0 }).components;
  const oneOff = kopecks(one.base) + kopecks(one.questions) + kopecks(one.blocks) + kopecks(one.screening);
  const perPortrait = (respondents: number, filters: number) => {
    const p = computePrice(bare, { ...base, targetFilters: filters, completes: respondents }).components;
    return kopecks(p.completes) + kopecks(p.filledBlocks) + kopecks(p.targetFilters);
  };
  let respondents = 0;
  let variable = 0n;
  for (const p of c.portraits) {
    respondents += p.respondents;
    variable += perPortrait(p.respondents, p.filters);
  }
  const vk = BigInt(Math.min(100, Math.max(0, Math.floor(settings.vkPercent))));
  const withVk = (k: bigint) => k + (k * vk + 50n) / 100n;
  const total = withVk(oneOff + variable);
  const oneOffVk = withVk(oneOff);
  // Without portraits (a default project) the price of one respondent with no target filter.
  const per =
    respondents > 0
      ? (total - oneOffVk + BigInt(respondents) / 2n) / BigInt(respondents)
      : withVk(perPortrait(1, 0));
  return { respondents, oneOff: roubles(oneOffVk), perRespondent: roubles(per), total: roubles(total) };
}
