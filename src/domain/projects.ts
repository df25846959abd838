// Projects (spec sections 3 and 4): statuses, types and templates. The status machine that says
// which transitions are allowed lives in projectStatus.ts.

export const ProjectStatus = {
  Created: 1,
  OnModeration: 2,
  OnRotation: 3,
  Rejected: 4,
  Paused: 5,
  Stopped: 6,
  ProjectFinished: 7,
  OnModerationVK: 8,
  CreatingReport: 9,
  SurveyFinished: 10,
  OnModerationAuto: 11,
} as const;
export type ProjectStatusId = (typeof ProjectStatus)[keyof typeof ProjectStatus];

/** Content may be edited only in these statuses (DESIGN.md 5). */
export const EDITABLE_STATUSES: readonly ProjectStatusId[] = [ProjectStatus.Created, ProjectStatus.Rejected];

export const ProjectType = { Default: 1, Target: 2 } as const;
export type ProjectTypeId = (typeof ProjectType)[keyof typeof ProjectType];

export const PROJECT_TEMPLATES = ['default', 'target', 'directLink', 'directLinkAdmin'] as const;
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];
