import { setup, transition } from 'xstate';
import { ProjectStatus, type ProjectStatusId } from './projects';

// The project-status machine (spec section 4, DESIGN.md 5). The spec leaves the transitions open;
// this chart is our decision, written out as a table in docs/decisions/projects.md. The same machine
// tells the UI which statuses the Administrator's selector offers and tells the server which
// POST /project/status calls it accepts, so the two can never disagree.
//
// Events: `status.<key>` is the Administrator moving the project to that status; `project.submit`
// is "send for moderation" / "get survey link" by whoever may edit the project.

export const STATUS_KEYS = {
  [ProjectStatus.Created]: 'created',
  [ProjectStatus.OnModeration]: 'onModeration',
  [ProjectStatus.OnRotation]: 'onRotation',
  [ProjectStatus.Rejected]: 'rejected',
  [ProjectStatus.Paused]: 'paused',
  [ProjectStatus.Stopped]: 'stopped',
  [ProjectStatus.ProjectFinished]: 'projectFinished',
  [ProjectStatus.OnModerationVK]: 'onModerationVK',
  [ProjectStatus.CreatingReport]: 'creatingReport',
  [ProjectStatus.SurveyFinished]: 'surveyFinished',
  [ProjectStatus.OnModerationAuto]: 'onModerationAuto',
} as const satisfies Record<ProjectStatusId, string>;

export type StatusKey = (typeof STATUS_KEYS)[ProjectStatusId];

/** Every status id in the order of the spec. */
export const ALL_STATUSES = (Object.keys(STATUS_KEYS).map(Number) as ProjectStatusId[]).sort((a, b) => a - b);

export function statusKey(id: ProjectStatusId): StatusKey {
  return STATUS_KEYS[id];
}

export function statusIdOf(key: string): ProjectStatusId | undefined {
  return ALL_STATUSES.find((id) => STATUS_KEYS[id] === key);
}

export function isProjectStatus(id: unknown): id is ProjectStatusId {
  return typeof id === 'number' && (ALL_STATUSES as readonly number[]).includes(id);
}

export type SetStatusEvent = { type: `status.${StatusKey}` };
export type ProjectStatusEvent = SetStatusEvent | { type: 'project.submit' };

const to = (key: StatusKey) => ({ [`status.${key}`]: { target: key } }) as Record<string, { target: string }>;
const toAll = (...keys: StatusKey[]) =>
  Object.assign({}, ...keys.map(to)) as Record<string, { target: string }>;

export const projectStatusMachine = setup({
  types: { events: {} as ProjectStatusEvent },
}).createMachine({
  id: 'projectStatus',
  initial: 'created',
  states: {
    // Being written by its researcher: the only statuses (with rejected) where content may change.
    created: { on: { 'project.submit': 'onModeration', ...toAll('onModeration') } },
    // Waiting for a moderator; the Administrator routes it to automatic or VK moderation, approves or rejects.
    onModeration: { on: toAll('onModerationAuto', 'onModerationVK', 'onRotation', 'rejected') },
    onModerationAuto: { on: toAll('onModeration', 'onRotation', 'rejected') },
    onModerationVK: { on: toAll('onRotation', 'rejected') },
    // Sent back: editable again, and may be sent for moderation once more.
    rejected: { on: { 'project.submit': 'onModeration', ...toAll('onModeration') } },
    // Shown to respondents.
    onRotation: { on: toAll('paused', 'stopped', 'surveyFinished') },
    paused: { on: toAll('onRotation', 'stopped') },
    stopped: { on: toAll('creatingReport') },
    surveyFinished: { on: toAll('creatingReport') },
    creatingReport: { on: toAll('projectFinished') },
    projectFinished: { type: 'final' },
  },
});

function snapshotAt(from: ProjectStatusId) {
  return projectStatusMachine.resolveState({ value: STATUS_KEYS[from], context: {} });
}

/** Whether the Administrator may move a project from one status to another (never to the same one). */
export function canSetStatus(from: ProjectStatusId, to: ProjectStatusId): boolean {
  if (!isProjectStatus(from) || !isProjectStatus(to)) return false;
  return snapshotAt(from).can({ type: `status.${STATUS_KEYS[to]}` });
}

/** The statuses the Administrator's selector offers besides the current one. */
export function allowedTargets(from: ProjectStatusId): ProjectStatusId[] {
  return ALL_STATUSES.filter((to) => canSetStatus(from, to));
}

/** Whether "send for moderation" / "get survey link" may move the project on. */
export function canSubmit(from: ProjectStatusId): boolean {
  return isProjectStatus(from) && snapshotAt(from).can({ type: 'project.submit' });
}

/** The status a submitted project lands in. */
export function statusAfterSubmit(from: ProjectStatusId): ProjectStatusId | undefined {
  if (!canSubmit(from)) return undefined;
  const [next] = transition(projectStatusMachine, snapshotAt(from), { type: 'project.submit' });
  return statusIdOf(String(next.value));
}
