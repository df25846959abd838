import { CompiledQuery } from 'kysely';
import type { Db } from '../db';
import { dialectOf, runPrepared } from '../db';
import type { User } from '../../src/domain/user';
import { tokenHash } from './sessions';

// Verified sessions kept in memory (docs/decisions/reads.md). Verifying a call's access token costs
// two joins (token with family, user with organization and category): most of a list's work on
// PostgreSQL, where each statement is a round trip. A verified session is kept here for a few
// seconds, together with the sign-in epoch it was verified under: migration 017's one-row counter,
// which triggers move forward in the transaction of every change that can end or alter a session
// (a user updated or deleted, a family revoked, a pair rotated, an organization changed). Each call
// reads the epoch, one row by primary key, after it arrived; while it is the one the entry was
// verified under, nothing that could end the session has committed since, on any server, so the
// entry is good. Anything else verifies afresh. Logout, deactivation, deletion and a password change
// therefore end sessions at once, on every server sharing the database.

export interface CachedSession {
  user: User;
  userId: number;
  familyId: string;
  accessExpiresAt: number;
  familyExpiresAt: number;
}

interface Entry extends CachedSession {
  epoch: number;
  cachedAt: number;
  /** When a call last took on verifying this entry afresh before it expires (0: none did). */
  refreshClaimedAt: number;
}

/** How long an entry is trusted at most, whatever the epoch says (a safety net, not the rule). */
export const SESSION_CACHE_MS = 5_000;
/**
 * After this age one call verifies the session afresh (and keeps the new entry) while the others
 * still use the entry: under steady load an entry is renewed before it expires, instead of every
 * call in flight at that moment verifying at once (100 connections: 100 verifications, about 400
 * statements in a burst on PostgreSQL, which the lists' p99 paid every 5 s).
 */
export const SESSION_REFRESH_MS = 3_000;
/** A claim to refresh that has not led to a new entry by then (an error) may be taken again. */
const REFRESH_RETRY_MS = 1_000;
const MAX_ENTRIES = 10_000;

const EPOCH_SQL = 'select n from auth_epoch where id = 1';

export class SessionCache {
  private entries = new Map<string, Entry>();
  private pending: Promise<number> | null = null;

  constructor(private db: Db) {}

  /**
   * The current epoch, read after the caller arrived. Calls that arrive in the same turn of the
   * event loop share one read, sent from a setImmediate (after the poll phase has taken every
   * request that was ready): it leaves after each of them arrived, so it sees every change that
   * committed before they were sent.
   */
  epoch(): Promise<number> {
    if (!this.pending) {
      this.pending = new Promise<number>((resolve, reject) => {
        setImmediate(() => {
          this.pending = null;
          this.readEpoch().then(resolve, reject);
        });
      });
    }
    return this.pending;
  }

  private async readEpoch(): Promise<number> {
    const rows =
      dialectOf(this.db) === 'postgres'
        ? await runPrepared<{ n: number | string }>(this.db, 'auth_epoch', EPOCH_SQL, [])
        : (await this.db.executeQuery<{ n: number }>(CompiledQuery.raw(EPOCH_SQL))).rows;
    return Number(rows[0]?.n ?? 0);
  }

  /** The session an access token opened, if it was verified under `epoch` and is still in date. */
  get(accessToken: string, epoch: number, now = Date.now()): CachedSession | null {
    return this.usable(accessToken, now, epoch);
  }

  /**
   * The entry if it is in date (and was verified under `epoch`, when given), unless this call is
   * the one to renew it; an entry out of date or of another epoch is dropped.
   */
  private usable(accessToken: string, now: number, epoch?: number): Entry | null {
    const key = tokenHash(accessToken);
    const e = this.entries.get(key);
    if (!e) return null;
    if (
      (epoch !== undefined && e.epoch !== epoch) ||
      now - e.cachedAt > SESSION_CACHE_MS ||
      e.accessExpiresAt <= now ||
      e.familyExpiresAt <= now
    ) {
      this.entries.delete(key);
      return null;
    }
    return this.claimRefresh(e, now) ? null : e;
  }

  /** True for the one call that is to verify an ageing entry afresh. */
  private claimRefresh(e: Entry, now: number): boolean {
    if (now - e.cachedAt < SESSION_REFRESH_MS || now - e.refreshClaimedAt < REFRESH_RETRY_MS) return false;
    e.refreshClaimedAt = now;
    return true;
  }

  /**
   * The session an access token opened, in date and young enough, whatever the epoch now: for a
   * read that checks the entry's epoch in its own statement (server/http/session-read.ts).
   */
  peek(accessToken: string, now = Date.now()): (CachedSession & { epoch: number }) | null {
    return this.usable(accessToken, now);
  }

  drop(accessToken: string) {
    this.entries.delete(tokenHash(accessToken));
  }

  /** Keeps a session verified from the database after `epoch` was read. */
  set(accessToken: string, epoch: number, session: CachedSession, now = Date.now()) {
    if (this.entries.size >= MAX_ENTRIES) {
      // Drop the oldest tenth at once rather than one entry per call.
      let n = MAX_ENTRIES / 10;
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--n <= 0) break;
      }
    }
    this.entries.set(tokenHash(accessToken), { ...session, epoch, cachedAt: now, refreshClaimedAt: 0 });
  }

  clear() {
    this.entries.clear();
  }
}
