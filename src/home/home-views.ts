/**
 * Per person, the hash of the App Home that Slack shows, shared by every replica through the
 * database: a publish passes it back to Slack, which refuses the publish when another process
 * published since. A person's very first publish is claimed first, so that two replicas never both
 * publish without a hash. Times are the database's, so replicas' clocks do not matter.
 */
import type { Queryable } from '../store/db.js';

/** How long a first publish may stay unfinished before another process takes it over. */
const CLAIM_SECONDS = 30;

/** The hash to publish over (undefined: first publish, claimed by this caller), or `busy`: another process is publishing a first home. */
export type HomeSlot = { hash: string | undefined } | 'busy';

export class HomeViews {
  constructor(private readonly db: Queryable) {}

  async slot(userId: string): Promise<HomeSlot> {
    const { rows } = await this.db.query<{ hash: string | null; stale: boolean; claimed_at: unknown }>(
      `SELECT hash, claimed_at, claimed_at < now() - make_interval(secs => $2) AS stale FROM home_views WHERE user_id = $1`,
      [userId, CLAIM_SECONDS],
    );
    const row = rows[0];
    if (!row) {
      const inserted = await this.db.query('INSERT INTO home_views (user_id) VALUES ($1) ON CONFLICT (tenant_id, user_id) DO NOTHING', [userId]);
      return inserted.rowCount === 1 ? { hash: undefined } : 'busy';
    }
    if (row.hash !== null) return { hash: row.hash };
    if (!row.stale) return 'busy';
    const taken = await this.db.query(
      `UPDATE home_views SET claimed_at = now() WHERE user_id = $1 AND hash IS NULL AND claimed_at < now() - make_interval(secs => $2)`,
      [userId, CLAIM_SECONDS],
    );
    return taken.rowCount === 1 ? { hash: undefined } : 'busy';
  }

  /** Records Slack's new hash, unless another process recorded one over `previous` meanwhile (its home is then the newer). */
  async published(userId: string, previous: string | undefined, hash: string): Promise<boolean> {
    const updated = await this.db.query('UPDATE home_views SET hash = $3, published_at = now() WHERE user_id = $1 AND hash IS NOT DISTINCT FROM $2', [
      userId,
      previous ?? null,
      hash,
    ]);
    return updated.rowCount === 1;
  }

  /** Takes the hash Slack sent with `app_home_opened` as the one to publish over. */
  async seen(userId: string, hash: string): Promise<void> {
    await this.db.query(
      `INSERT INTO home_views (user_id, hash, published_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET hash = EXCLUDED.hash WHERE home_views.hash IS NOT NULL`,
      [userId, hash],
    );
  }

  /** A first publish that failed gives its claim back, so that the next try need not wait for it to expire. */
  async release(userId: string): Promise<void> {
    await this.db.query('DELETE FROM home_views WHERE user_id = $1 AND hash IS NULL', [userId]);
  }

  /** Who has a home, among `candidates` (everyone when undefined). */
  async people(candidates?: readonly string[]): Promise<string[]> {
    const { rows } = candidates
      ? await this.db.query<{ user_id: string }>('SELECT user_id FROM home_views WHERE user_id = ANY($1) ORDER BY user_id', [[...new Set(candidates)]])
      : await this.db.query<{ user_id: string }>('SELECT user_id FROM home_views ORDER BY user_id');
    return rows.map((row) => row.user_id);
  }
}
