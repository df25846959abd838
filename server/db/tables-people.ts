import type { Generated } from 'kysely';

// Tables added by migration 003-people. The columns it adds to users, organizations and
// categories are declared beside those tables in schema.ts.

/**
 * A mailed link: an invitation or a password reset. Only the SHA-256 of the token is kept. A link
 * works until it expires, is used once, or is revoked (a new invitation, deactivation).
 */
export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'invitation' | 'reset';
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/** The fixed organization types of src/domain/organizations.ts, seeded for reporting joins. */
export interface OrganizationTypesTable {
  id: number;
  code: string;
}
