/**
 * The digest's record of posted days, shared by every replica. A day is claimed before it is posted
 * and marked posted after Slack accepted it; see "Exactly once" under "Daily digest" in docs/using.md.
 */
import type { Queryable } from '../store/db.js';

/** Records `day` as the first due day, unless one is recorded already; returns the recorded one. */
export async function firstDigestDay(db: Queryable, day: string): Promise<string> {
  await db.query('INSERT INTO digest_state (id, first_day) VALUES (1, $1) ON CONFLICT (tenant_id, id) DO NOTHING', [day]);
  const { rows } = await db.query<{ first_day: string }>('SELECT first_day FROM digest_state WHERE id = 1');
  return rows[0]?.first_day ?? day;
}

/** The days among `days` already posted. */
export async function postedDays(db: Queryable, days: readonly string[]): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const { rows } = await db.query<{ day: string }>('SELECT day FROM digest_posts WHERE day = ANY($1::text[]) AND posted_at IS NOT NULL', [days]);
  return new Set(rows.map((row) => row.day));
}

/**
 * Claims `day` for `holder` for `ttlMs` (database time). Succeeds when nobody claimed the day, or
 * when a claim that was never marked posted has expired; one statement, so two replicas racing for
 * a day cannot both win. Returns the attempt number, or undefined when the day is not ours to post.
 */
export async function claimDay(db: Queryable, day: string, channelId: string, holder: string, ttlMs: number): Promise<number | undefined> {
  const { rows } = await db.query<{ attempts: number }>(
    `INSERT INTO digest_posts (day, channel_id, claimed_by, claim_expires_at)
     VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
     ON CONFLICT (tenant_id, day) DO UPDATE SET claimed_by = excluded.claimed_by, claim_expires_at = excluded.claim_expires_at,
            channel_id = excluded.channel_id, attempts = digest_posts.attempts + 1
      WHERE digest_posts.posted_at IS NULL AND digest_posts.claim_expires_at <= clock_timestamp()
     RETURNING attempts`,
    [day, channelId, holder, Math.ceil(ttlMs)],
  );
  return rows[0]?.attempts;
}

/**
 * Extends `holder`'s claim on `day` to `ttlMs` from now (database time), while it builds and posts
 * the day; false when the claim is no longer its own (it expired and another replica took it).
 */
export async function renewClaim(db: Queryable, day: string, holder: string, ttlMs: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE digest_posts SET claim_expires_at = clock_timestamp() + $3 * interval '1 millisecond'
      WHERE day = $1 AND claimed_by = $2 AND posted_at IS NULL`,
    [day, holder, Math.ceil(ttlMs)],
  );
  return result.rowCount === 1;
}

/** Marks `day` posted by `holder`; false when its claim was taken over meanwhile (it expired). */
export async function markPosted(db: Queryable, day: string, holder: string, post: { ts: string | undefined; late: boolean }): Promise<boolean> {
  const result = await db.query(
    `UPDATE digest_posts SET posted_at = clock_timestamp(), message_ts = $3, late = $4
      WHERE day = $1 AND claimed_by = $2 AND posted_at IS NULL`,
    [day, holder, post.ts ?? null, post.late],
  );
  return result.rowCount === 1;
}

/** Gives a claim up after a failed post, so that the next tick (here or on another replica) tries again. */
export async function releaseDay(db: Queryable, day: string, holder: string): Promise<void> {
  await db.query('UPDATE digest_posts SET claim_expires_at = clock_timestamp() WHERE day = $1 AND claimed_by = $2 AND posted_at IS NULL', [day, holder]);
}
