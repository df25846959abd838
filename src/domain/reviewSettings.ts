import * as v from 'valibot';
import { callbackUrl, customParams } from './content/model';
import { LIMITS, HARD_CAP } from './content/limits';
import { ProjectStatus } from './projects';

// While a project is on moderation, holders of project-editor.change-block-settings and
// question.change-custom-params (Administrator, Moderator) set the platform's technical fields and
// nothing else (DESIGN.md section 5): block customParams and callbackUrl, question customParams.
// POST /project/review-settings carries only those fields, by item id, against a version.

export const REVIEW_STATUSES: readonly number[] = [
  ProjectStatus.OnModeration,
  ProjectStatus.OnModerationVK,
  ProjectStatus.OnModerationAuto,
];

const itemId = v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'));
const maxItems = LIMITS.blocksPerQuestionnaire * LIMITS.questionnaires * HARD_CAP;

export const ReviewSettingsBody = v.strictObject({
  pid: v.pipe(
    v.number('type'),
    v.integer('integer'),
    v.minValue(1, 'positiveInteger'),
    v.maxValue(2 ** 31 - 1, 'invalid'),
  ),
  version: v.pipe(
    v.number('type'),
    v.integer('integer'),
    v.minValue(0, 'invalid'),
    v.maxValue(2 ** 31 - 1, 'invalid'),
  ),
  blocks: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          id: itemId,
          customParams: v.optional(customParams),
          callbackUrl: v.optional(callbackUrl),
        }),
        'type',
      ),
      v.maxLength(maxItems, 'tooLong'),
    ),
    [],
  ),
  questions: v.optional(
    v.pipe(
      v.array(v.strictObject({ id: itemId, customParams }), 'type'),
      v.maxLength(maxItems * LIMITS.questionsPerBlock, 'tooLong'),
    ),
    [],
  ),
});
export type ReviewSettingsBody = v.InferOutput<typeof ReviewSettingsBody>;
