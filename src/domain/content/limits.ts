// The limits of DESIGN.md section 5 (the spec says "not shown"): one table that the rules, the
// import parser, the picture upload and the forms all read, so a limit changes in one place.

export const LIMITS = {
  questionnaires: 10,
  blocksPerQuestionnaire: 50,
  questionsPerBlock: 100,
  answersPerQuestion: 50,
  /** Matrix rows; the same bound as answers (its columns). */
  statementsPerQuestion: 50,
  portraits: 20,
  respondentsMin: 1,
  respondentsMax: 100_000,
  ageMin: 14,
  ageMax: 99,
  starsMin: 3,
  starsMax: 10,
  /** Parameters (target conditions) in one portrait. */
  portraitParams: 20,
  /** Fields one question may write to the respondent's record. */
  dbFields: 20,
  imageBytes: 5 * 1024 * 1024,
  /** Pictures in one upload call. */
  imagesPerUpload: 10,
} as const;

/** Text sizes. Long enough for real questionnaires, short enough that one item cannot flood a page. */
export const TEXT_MAX = {
  question: 2000,
  answer: 1000,
  name: 200,
  other: 200,
  customParams: 10_000,
  url: 2000,
} as const;

/**
 * Hard caps of the payload schema, ten times the limits above: content beyond the limits still parses
 * (so the rules can name the limit and the item with its code), but an absurd payload is refused early.
 */
export const HARD_CAP = 10;

/** Picture types accepted by POST /picture (judged by the file's bytes, never its name). */
export const IMAGE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
export type ImageExt = keyof typeof IMAGE_TYPES;

/** Where uploaded pictures are served (GET, public, cached for a year): content hash + extension. */
export const PICTURE_BASE = '/api/v1/service/pictures/';
export const PICTURE_PATH_RE = /^\/api\/v1\/service\/pictures\/([0-9a-f]{64})\.(jpg|png|webp|gif)$/;

export function pictureUrl(hash: string, ext: ImageExt): string {
  return `${PICTURE_BASE}${hash}.${ext}`;
}

/** The content hash of a picture reference made by pictureUrl, or null for anything else. */
export function pictureHash(url: string): string | null {
  return PICTURE_PATH_RE.exec(url)?.[1] ?? null;
}

/**
 * A picture chosen while offline waits in the browser's queue (src/db/pendingPictures.ts); until it
 * is uploaded the content refers to it as `local-picture:<id>`. The rules refuse such a reference,
 * so the server never stores one: the editor uploads the queue and swaps the references first.
 */
export const PENDING_PICTURE_PREFIX = 'local-picture:';
const PENDING_ID_RE = /^local-picture:([A-Za-z0-9_-]{1,64})$/;

export const pendingPictureRef = (id: string) => `${PENDING_PICTURE_PREFIX}${id}`;

/** The queue id of a `local-picture:` reference, or null for anything else. */
export function pendingPictureId(ref: string | null | undefined): string | null {
  return (ref && PENDING_ID_RE.exec(ref)?.[1]) ?? null;
}
