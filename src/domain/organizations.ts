import * as v from 'valibot';
import { INT32_MAX, int32Max, queryInt } from './validation';
import { listQuery, objectMessage } from './users';

// Organizations and categories (spec section 3: "Organization: id, type (filter). Categories fetched
// separately"). The spec shows neither list, so we chose them (docs/decisions/people.md). Ids are
// stable: they are stored in rows and seeded by migration 003-people. Labels live in i18n under
// people.orgType.<code> and people.category.<code>.

export const OrganizationType = {
  ResearchAgency: 1,
  GamePublisher: 2,
  Platform: 3,
  Advertiser: 4,
  Individual: 5,
} as const;
export type OrganizationTypeId = (typeof OrganizationType)[keyof typeof OrganizationType];

export const ORGANIZATION_TYPES: readonly { id: OrganizationTypeId; code: string }[] = [
  { id: 1, code: 'researchAgency' },
  { id: 2, code: 'gamePublisher' },
  { id: 3, code: 'platform' },
  { id: 4, code: 'advertiser' },
  { id: 5, code: 'individual' },
];

export function isOrganizationType(id: number): id is OrganizationTypeId {
  return ORGANIZATION_TYPES.some((t) => t.id === id);
}

/** The seeded categories: the industry an organization or a user works in. `name` is the Russian label. */
export const CATEGORY_SEED: readonly { code: string; name: string }[] = [
  { code: 'fmcg', name: 'Товары повседневного спроса (FMCG)' },
  { code: 'retail', name: 'Розничная торговля и e-commerce' },
  { code: 'finance', name: 'Банки, финансы и страхование' },
  { code: 'telecom', name: 'Телеком' },
  { code: 'it', name: 'IT и интернет-сервисы' },
  { code: 'media', name: 'Медиа и развлечения' },
  { code: 'games', name: 'Игры' },
  { code: 'automotive', name: 'Автомобили' },
  { code: 'pharma', name: 'Фармацевтика и здоровье' },
  { code: 'education', name: 'Образование' },
  { code: 'realEstate', name: 'Недвижимость и строительство' },
  { code: 'travel', name: 'Путешествия и HoReCa' },
  { code: 'public', name: 'Государственный и некоммерческий сектор' },
  { code: 'other', name: 'Другое' },
];

export interface Category {
  id: number;
  code: string | null;
  /** In the caller's language for seeded categories. */
  name: string;
}

export interface Organization {
  id: number;
  name: string;
  type: OrganizationTypeId;
  category: { id: number; name: string } | null;
  /** Unix milliseconds. */
  createdAt: number;
}

export const ORGANIZATION_NAME_MAX = 200;

const id = v.pipe(v.number('type'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max);

export const OrganizationCreateBody = v.strictObject(
  {
    name: v.pipe(
      v.string('type'),
      v.trim(),
      v.nonEmpty('required'),
      v.maxLength(ORGANIZATION_NAME_MAX, 'tooLong'),
    ),
    type: v.pipe(
      id,
      v.check(isOrganizationType, 'invalid'),
      v.transform((n) => n as OrganizationTypeId),
    ),
    categoryId: v.optional(v.nullable(id)),
  },
  objectMessage,
);
export type OrganizationCreateBody = v.InferOutput<typeof OrganizationCreateBody>;

const positiveQueryInt = queryInt(1, INT32_MAX);

export const ORGANIZATION_SORTS = ['name', 'type', 'createdAt'] as const;
export const OrganizationsQuery = v.object({
  ...listQuery(ORGANIZATION_SORTS, 'name').entries,
  type: v.optional(v.pipe(positiveQueryInt, v.check(isOrganizationType, 'invalid'))),
});
export type OrganizationsQuery = v.InferOutput<typeof OrganizationsQuery>;

export const OrganizationQuery = v.object({ id: positiveQueryInt });

/** The key that makes two names the same organization: case and spacing do not count. */
export function organizationNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
