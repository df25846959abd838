import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import {
  ALL_STATUSES,
  allowedTargets,
  canSetStatus,
  canSubmit,
  projectStatusMachine,
  statusAfterSubmit,
  statusIdOf,
  statusKey,
  type ProjectStatusEvent,
} from '../../src/domain/projectStatus';
import { ProjectStatus, type ProjectStatusId } from '../../src/domain/projects';
import { ADMIN_TRANSITIONS, SUBMITTABLE } from './projectStatus.table';

// Model-based test of the project-status machine: every path the machine allows is walked against
// the functions the UI and the server call (canSetStatus, canSubmit, allowedTargets), and in every
// reachable status every event the table refuses is checked to be refused.

const EVENTS: ProjectStatusEvent[] = [
  ...ALL_STATUSES.map((s) => ({ type: `status.${statusKey(s)}` }) as ProjectStatusEvent),
  { type: 'project.submit' },
];

/** The system under test: a project's status, moved only through the domain functions. */
class StatusHolder {
  status: ProjectStatusId = ProjectStatus.Created;
  apply(event: ProjectStatusEvent) {
    if (event.type === 'project.submit') {
      expect(canSubmit(this.status)).toBe(true);
      this.status = statusAfterSubmit(this.status)!;
      return;
    }
    const to = statusIdOf(event.type.slice('status.'.length))!;
    expect(canSetStatus(this.status, to)).toBe(true);
    this.status = to;
  }
}

describe('project-status machine', () => {
  const model = createTestModel(projectStatusMachine, { events: EVENTS });

  it('reaches every status of spec section 4 from Created', () => {
    const reached = new Set(
      model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => String(p.state.value)),
    );
    expect([...reached].sort()).toEqual(ALL_STATUSES.map(statusKey).sort());
  });

  const paths = model.getSimplePaths({ allowDuplicatePaths: true });
  it('has simple paths to walk', () => {
    expect(paths.length).toBeGreaterThan(ALL_STATUSES.length);
  });

  // One shortest path to each status (kept even when a longer path passes through it).
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true })) {
    it(`walks ${path.description}`, async () => {
      const holder = new StatusHolder();
      const states = Object.fromEntries(
        ALL_STATUSES.map((s) => [
          statusKey(s),
          () => {
            expect(holder.status).toBe(s);
            // In this status, exactly the table's targets are allowed and everything else refused.
            expect(allowedTargets(s)).toEqual([...ADMIN_TRANSITIONS[s]].sort((a, b) => a - b));
            for (const to of ALL_STATUSES)
              expect(canSetStatus(s, to)).toBe(ADMIN_TRANSITIONS[s].includes(to));
            expect(canSubmit(s)).toBe(SUBMITTABLE.includes(s));
          },
        ]),
      );
      const events = Object.fromEntries(EVENTS.map((e) => [e.type, () => holder.apply(e)]));
      await path.test({ states, events });
    });
  }

  it('walks every simple path (all routes through moderation, rotation and reporting)', async () => {
    for (const path of paths) {
      const holder = new StatusHolder();
      const events = Object.fromEntries(EVENTS.map((e) => [e.type, () => holder.apply(e)]));
      await path.test({ states: {}, events });
      expect(statusKey(holder.status)).toBe(String(path.state.value));
    }
  });

  it('agrees with the table in every status for every event, allowed or refused', () => {
    for (const from of ALL_STATUSES) {
      const snapshot = projectStatusMachine.resolveState({ value: statusKey(from), context: {} });
      for (const event of EVENTS) {
        const expected =
          event.type === 'project.submit'
            ? SUBMITTABLE.includes(from)
            : ADMIN_TRANSITIONS[from].includes(statusIdOf(event.type.slice(7))!);
        expect(snapshot.can(event), `${statusKey(from)} + ${event.type}`).toBe(expected);
      }
    }
  });

  it('never allows staying in place or unknown statuses', () => {
    for (const s of ALL_STATUSES) expect(canSetStatus(s, s)).toBe(false);
    expect(canSetStatus(ProjectStatus.Created, 42 as ProjectStatusId)).toBe(false);
    expect(canSubmit(0 as ProjectStatusId)).toBe(false);
  });

  it('sends Created and Rejected projects to On moderation', () => {
    expect(statusAfterSubmit(ProjectStatus.Created)).toBe(ProjectStatus.OnModeration);
    expect(statusAfterSubmit(ProjectStatus.Rejected)).toBe(ProjectStatus.OnModeration);
    expect(statusAfterSubmit(ProjectStatus.OnRotation)).toBeUndefined();
  });

  it('ends in Project finished', () => {
    const final = projectStatusMachine.resolveState({ value: 'projectFinished', context: {} });
    expect(final.status).toBe('done');
  });
});
