import { describe, expect, it } from 'vitest';
import { UserStatus, type UserStatusId } from '../../src/domain/roles';
import {
  ALLOWED_STATUS_CHANGES,
  canChangeStatus,
  STATUS_CHOICES,
  statusOptions,
} from '../../src/domain/userStatus';

// The user status rules of spec section 4, shared by the selector and the server.

const ALL = Object.values(UserStatus) as UserStatusId[];
const { Created, InvitationSent, InvitationAccepted, Activated, Deactivated } = UserStatus;

describe('user status changes', () => {
  it('allows exactly the four changes of the spec', () => {
    const allowed = ALL.flatMap((from) =>
      ALL.filter((to) => canChangeStatus(from, to)).map((to) => [from, to]),
    );
    expect(allowed).toEqual([
      [InvitationSent, Activated],
      [InvitationSent, Deactivated],
      [Activated, Deactivated],
      [Deactivated, Activated],
    ]);
    expect(ALLOWED_STATUS_CHANGES).toHaveLength(4);
  });

  it('never allows staying put as a change, nor moving back to Created or Invitation accepted', () => {
    for (const s of ALL) {
      expect(canChangeStatus(s, s)).toBe(false);
      expect(canChangeStatus(s, Created)).toBe(false);
      expect(canChangeStatus(s, InvitationAccepted)).toBe(false);
    }
  });

  it('offers Invitation sent, Activated and Deactivated, and always the current status', () => {
    expect(STATUS_CHOICES).toEqual([InvitationSent, Activated, Deactivated]);
    for (const current of ALL) {
      const options = statusOptions(current);
      const ids = options.map((o) => o.id);
      expect(ids).toContain(current);
      for (const c of STATUS_CHOICES) expect(ids).toContain(c);
      expect(new Set(ids).size).toBe(ids.length);
      expect(options.filter((o) => o.current).map((o) => o.id)).toEqual([current]);
      for (const o of options) expect(o.allowed).toBe(o.current || canChangeStatus(current, o.id));
    }
  });

  it('marks what a deactivated user can move to', () => {
    expect(statusOptions(Deactivated)).toEqual([
      { id: InvitationSent, allowed: false, current: false },
      { id: Activated, allowed: true, current: false },
      { id: Deactivated, allowed: true, current: true },
    ]);
    expect(statusOptions(Created).map((o) => [o.id, o.allowed])).toEqual([
      [Created, true],
      [InvitationSent, false],
      [Activated, false],
      [Deactivated, false],
    ]);
  });
});
