import * as v from 'valibot';
import { int32Max } from './validation';
import { listQuery, strictBody } from './games';
import type { PriceSettings, ProjectCounts } from './price';

// Tariffs and the tariff calculator (spec sections 3 and 7): shapes and valibot schemas shared by
// the server and the forms. Every setting exists twice, once for researchers and once for issuers
// (docs/decisions/games-pricing.md). Messages are `validation` keys: the spec's 'This field must be
// a number' (integer) and 'This field must be a positive number' (positiveInteger).

export const AUDIENCES = ['researchers', 'issuers'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** The nine settings kept by /tariffs/calculator; the tenth, VK percent, by /vk/percent. */
export const CALCULATOR_KEYS = [
  'basePrice',
  'questionSurcharge',
  'questionStep',
  'blockSurcharge',
  'blockProgressive',
  'screeningPrice',
  'targetFilterSurcharge',
  'filledBlockPrice',
  'completedSurveyPrice',
] as const satisfies readonly (keyof PriceSettings)[];
export type CalculatorKey = (typeof CALCULATOR_KEYS)[number];

/** The ten settings in the order the calculator page shows them. */
export const SETTING_KEYS = [
  'vkPercent',
  ...CALCULATOR_KEYS,
] as const satisfies readonly (keyof PriceSettings)[];

export type CalculatorSettings = Record<Audience, Omit<PriceSettings, 'vkPercent'>>;
export type VkPercent = Record<Audience, number>;

/** Upper bounds keep every number a person could mean and refuse typos of ten extra digits. */
export const MONEY_MAX = 10_000_000;
export const PERCENT_MAX = 100;
export const COUNT_MAX = 10_000_000;
export const TARIFF_NAME_MAX = 100;

/**
 * A whole number from a JSON body or a form (where an empty field arrives as '' or undefined):
 * required, then an integer ('This field must be a number'), then not below `min` ('This field
 * must be a positive number').
 */
export function wholeNumber(min: number, max: number) {
  return v.pipe(
    v.unknown(),
    v.check((x) => x !== undefined && x !== null && x !== '', 'required'),
    v.check((x) => typeof x === 'number' && Number.isInteger(x), 'integer'),
    v.transform((x) => x as number),
    v.minValue(min, 'positiveInteger'),
    v.maxValue(max, 'tooBig'),
  );
}

const money = wholeNumber(0, MONEY_MAX);
export const percent = wholeNumber(0, PERCENT_MAX);

export const AudienceSettings = strictBody({
  basePrice: money,
  questionSurcharge: money,
  // A step of 0 would divide by zero: one question is the smallest step.
  questionStep: wholeNumber(1, COUNT_MAX),
  blockSurcharge: money,
  blockProgressive: money,
  screeningPrice: money,
  targetFilterSurcharge: money,
  filledBlockPrice: money,
  completedSurveyPrice: money,
});

export const CalculatorBody = strictBody({ researchers: AudienceSettings, issuers: AudienceSettings });
export const VkPercentBody = strictBody({ researchers: percent, issuers: percent });

/** The counts of the live estimate (and, later, of a real project). */
export const CountsInput = strictBody({
  questions: wholeNumber(0, COUNT_MAX),
  blocks: wholeNumber(0, COUNT_MAX),
  screening: wholeNumber(0, COUNT_MAX),
  targetFilters: wholeNumber(0, COUNT_MAX),
  completes: wholeNumber(0, COUNT_MAX),
}) satisfies v.GenericSchema<unknown, ProjectCounts>;

// ---- tariffs ----

export interface Tariff {
  id: number;
  name: string;
  /** Percent, 0–100. */
  discount: number;
  /** Registration date, unix milliseconds. */
  createdAt: number;
}

const tariffName = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(TARIFF_NAME_MAX, 'tooLong'),
);

export const TariffBody = strictBody({ name: tariffName, discount: percent });
export type TariffBody = v.InferOutput<typeof TariffBody>;
const tariffId = v.pipe(
  v.number('required'),
  v.integer('integer'),
  v.minValue(1, 'positiveInteger'),
  int32Max,
);
export const TariffIdBody = strictBody({ tariffId });
export const TariffUpdateBody = strictBody({ tariffId, name: tariffName, discount: percent });

export const TARIFF_SORT_KEYS = ['name', 'discount', 'createdAt'] as const;
export const TariffsQuery = listQuery(TARIFF_SORT_KEYS);
