import { ProjectStatus as S, type ProjectStatusId } from '../../src/domain/projects';

// The transition table of docs/decisions/projects.md, written out by hand: the machine test checks
// the machine against it, and the server test checks POST /project/status against it. Changing the
// machine without changing this table (and the document) fails both.

/** Where the Administrator may move a project from each status. */
export const ADMIN_TRANSITIONS: Record<ProjectStatusId, ProjectStatusId[]> = {
  [S.Created]: [S.OnModeration],
  [S.OnModeration]: [S.OnRotation, S.Rejected, S.OnModerationVK, S.OnModerationAuto],
  [S.OnRotation]: [S.Paused, S.Stopped, S.SurveyFinished],
  [S.Rejected]: [S.OnModeration],
  [S.Paused]: [S.OnRotation, S.Stopped],
  [S.Stopped]: [S.CreatingReport],
  [S.ProjectFinished]: [],
  [S.OnModerationVK]: [S.OnRotation, S.Rejected],
  [S.CreatingReport]: [S.ProjectFinished],
  [S.SurveyFinished]: [S.CreatingReport],
  [S.OnModerationAuto]: [S.OnModeration, S.OnRotation, S.Rejected],
};

/** Statuses from which "send for moderation" / "get survey link" move the project to On moderation. */
export const SUBMITTABLE: ProjectStatusId[] = [S.Created, S.Rejected];
