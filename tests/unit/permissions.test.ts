import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS, type Permission } from '../../src/domain/permissions';
import { Role, type RoleName } from '../../src/domain/roles';

// The permission table of spec section 6, written out by hand.
const ALL: RoleName[] = [
  'Administrator',
  'Moderator',
  'ModeratorVK',
  'Researcher',
  'Issuer',
  'DemoResearcher',
];
const SPEC: Record<Permission, RoleName[]> = {
  'project.clone': ['Administrator', 'Moderator'],
  'project.change-status': ['Administrator'],
  'project-editor.change-block-settings': ['Administrator', 'Moderator'],
  'project-editor.change-project-settings': ALL.filter((r) => r !== 'Researcher'),
  'question.change-custom-params': ['Administrator', 'Moderator'],
  'games.create-platform': ['Administrator'],
  everyone: ALL,
};

describe('permission table (spec section 6)', () => {
  it('names exactly the spec permissions', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(Object.keys(SPEC).sort());
  });

  for (const [permission, holders] of Object.entries(SPEC) as [Permission, RoleName[]][]) {
    it(`${permission}: ${holders.join(', ')}`, () => {
      for (const role of ALL) expect(can(Role[role], permission), role).toBe(holders.includes(role));
    });
  }

  it('refuses a missing or unknown role', () => {
    expect(can(undefined, 'everyone')).toBe(false);
    expect(can(0, 'everyone')).toBe(false);
    expect(can(7, 'project.clone')).toBe(false);
  });
});
